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

    /**
     * Hears a call whose tool is about to run: every check has passed (policy, validation, the host's admission)
     * and nothing of the tool has run yet. The event's {@link CallEvent#ending() ending} is
     * {@link CallEvent.Ending#RUNNING}, its {@link CallEvent#took() took} the time since the call arrived; the same
     * call's {@link #called} follows once it is over. For a trail that must show a call whose process died before
     * it ended (an audit line written while the tool runs). Called on the call's thread, as {@link #called} is:
     * never block. Calls that never reach their tool (unknown, denied, invalid, refused) are heard by
     * {@link #called} only. Does nothing unless implemented (since 1.4).
     */
    default void running(CallEvent event) {
    }
}
