package io.quiver.transport.http.internal;

import jakarta.servlet.http.HttpServletRequest;

/** Bounds how long clients take to send request headers, where the servlet container lets it ({@link HeaderGuard}). */
interface HeaderWatch {

    /** Nothing to watch with (not Jetty). */
    HeaderWatch NONE = new HeaderWatch() {
        @Override
        public void observe(HttpServletRequest request) {
        }

        @Override
        public int sweep(long timeoutMs) {
            return 0;
        }
    };

    /** Learns the connector a request came through. */
    void observe(HttpServletRequest request);

    /** Learns a connector (the container's own type) a request came through before any servlet saw it. */
    default void observe(Object connector) {
    }

    /** Learns the connectors of a server (the container's own type) that has just started, before any request. */
    default void watchServer(Object server) {
    }

    /** Closes the connections whose headers take longer than {@code timeoutMs}; how many it closed. */
    int sweep(long timeoutMs);
}
