package io.quiver.transport.stdio.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Open once the launcher says the server's start is over: it registers a service with {@value #STARTED} = true after
 * the features' bundles, etc/ and deploy/'s first pass are in. A start that never says so (it failed: the framework
 * stops) opens it after {@value #WAIT_MS} ms, so that nothing waits for good.
 */
final class StartGate {

    private static final Logger LOG = LoggerFactory.getLogger(StartGate.class);
    static final String STARTED = "quiver.started";
    static final long WAIT_MS = 60_000;

    private final CountDownLatch open = new CountDownLatch(1);
    private final BundleContext context;
    private final ServiceListener listener = event -> {
        if (event.getType() == ServiceEvent.REGISTERED) {
            open();
        }
    };

    StartGate(BundleContext context) {
        this.context = context;
        String filter = "(" + STARTED + "=true)";
        try {
            context.addServiceListener(listener, filter);
            if (context.getServiceReferences((String) null, filter) != null) {
                open();
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private void open() {
        open.countDown();
    }

    /** Returns once the start is over (at once from then on), or the wait is given up. */
    void await() {
        if (open.getCount() == 0) {
            return;
        }
        try {
            if (!open.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("The server has not said that its start is over after {} ms: serving stdio anyway", WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        open();
    }

    /** Lets a waiting reader go (the transport stops). */
    void close() {
        open();
        try {
            context.removeServiceListener(listener);
        } catch (IllegalStateException e) {
            // the bundle is stopping: its listeners go with it
        }
    }
}
