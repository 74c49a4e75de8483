package io.quiver.api.resource;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * What a {@link Resource} or {@link ResourceTemplate} service may also implement to learn which of its URIs
 * clients want updates of: to watch a file only while someone listens, or to subscribe further up. The
 * server calls {@link #subscribed} when a URI this service would read gets its first subscriber
 * ({@code resources/subscribe} in a session, a {@code subscriptions/listen} stream naming it), and
 * {@link #unsubscribed} when its last one is gone: unsubscribed, its session or stream ended, or the URI is
 * now read by another service (a service registered ahead of this one, or this one unregistered). A URI no
 * fixed resource has goes to every template that matches it. Announce the changes with
 * {@link ResourceEvents#updated}.
 *
 * <p>The server calls these one at a time, in the order the subscriptions changed, without holding its locks (so
 * announcing an update from within them is fine), possibly a moment after the request that subscribed was
 * answered; the thread that calls them delivers other services' calls too: return quickly, and hand work that may
 * wait (a request over the network) to a thread of your own.
 */
@ConsumerType
public interface Subscribable {

    /** The first subscriber of {@code uri} came. */
    void subscribed(String uri);

    /** The last subscriber of {@code uri} went. */
    void unsubscribed(String uri);
}
