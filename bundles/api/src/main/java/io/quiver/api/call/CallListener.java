package io.quiver.api.call;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Hears every tool call once it is over (a whiteboard service: every registered one), with every
 * decision taken on the way and how it ended: answered calls just before their answer goes out, tasks
 * when they end. Called on the call's thread, which for a non-blocking tool (and for a call refused at once: an unknown, hidden or denied tool) may be the thread that read
 * the request from its connection (the HTTP transport's selector lane): keep it quick, never block, and hand slow work (writing an audit log)
 * to a thread of your own. An exception is logged and ignored.
 */
@ConsumerType
public interface CallListener {

    void called(CallEvent event);
}
