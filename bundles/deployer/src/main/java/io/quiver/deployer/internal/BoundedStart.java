package io.quiver.deployer.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleException;

/**
 * Starts a bundle on a thread of its own and waits a bounded time: a bundle whose activator never
 * returns must not hold FileInstall's thread (and the deployer's lock), or every later change to
 * deploy/ would be ignored. A start that takes longer goes on in the background.
 */
final class BoundedStart {

    private static final ExecutorService STARTERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "quiver-deploy-start");
        t.setDaemon(true);
        return t;
    });

    private BoundedStart() {
    }

    /** What is said of a bundle that took longer than {@code timeoutMs} to start. */
    static String tooLong(long timeoutMs) {
        return "did not finish starting within " + timeoutMs + " ms (startTimeoutMs of " + DeployerConfig.PID
                + "); it goes on starting in the background";
    }

    /** A change to a bundle that may run its activator (a start, a stop, an uninstall). */
    @FunctionalInterface
    interface BundleChange {
        void run() throws BundleException;
    }

    /** What is said of a bundle whose stop took longer than {@code timeoutMs}. */
    static String stopTooLong(long timeoutMs) {
        return "did not finish stopping within " + timeoutMs + " ms (stopTimeoutMs of " + DeployerConfig.PID
                + "): its activator's stop has not returned";
    }

    /**
     * Starts the bundle, waiting at most {@code timeoutMs}.
     *
     * @throws TimeoutException when it has not finished starting by then (it goes on)
     */
    static void start(Bundle bundle, long timeoutMs) throws BundleException, TimeoutException {
        within(timeoutMs, bundle::start);
    }

    /**
     * Makes a change that runs a bundle's activator (its stop, when it is stopped or uninstalled), waiting at most
     * {@code timeoutMs}: an activator whose stop never returns must not hold deploy/ either.
     *
     * @throws TimeoutException when it is not over by then (it goes on in the background)
     */
    static void within(long timeoutMs, BundleChange change) throws BundleException, TimeoutException {
        within(timeoutMs, change, () -> { }, () -> { });
    }

    /**
     * {@link #within}, and when the wait gives up, {@code gaveUp} runs (what the waiter says of it), then, once the
     * change is over, {@code late} (what the waiter would have done next, such as refreshing the wiring of a bundle
     * uninstalled late): in that order, whichever thread ends first.
     */
    static void within(long timeoutMs, BundleChange change, Runnable gaveUp, Runnable late)
            throws BundleException, TimeoutException {
        boolean[] overAndGaveUp = new boolean[2]; // guarded by itself: the change is over; the waiter gave up
        Future<?> started = STARTERS.submit(() -> {
            try {
                change.run();
            } finally {
                synchronized (overAndGaveUp) {
                    overAndGaveUp[0] = true;
                    if (overAndGaveUp[1]) {
                        late.run();
                    }
                }
            }
            return null;
        });
        try {
            try {
                started.get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | InterruptedException e) {
                synchronized (overAndGaveUp) {
                    if (!overAndGaveUp[0]) {
                        overAndGaveUp[1] = true;
                        gaveUp.run(); // said before the change can end and run late
                        if (e instanceof InterruptedException) {
                            Thread.currentThread().interrupt();
                        }
                        throw e instanceof TimeoutException te ? te : new TimeoutException("interrupted while waiting");
                    }
                }
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                waitFor(started); // over just now: its outcome is the waiter's after all
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof BundleException be) {
                throw be;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The outcome of a change that is over (or all but over): waited for without being interrupted. */
    private static void waitFor(Future<?> over) throws ExecutionException {
        boolean interrupted = Thread.interrupted();
        try {
            while (true) {
                try {
                    over.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
