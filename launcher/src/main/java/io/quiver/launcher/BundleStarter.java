package io.quiver.launcher;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleException;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the feature bundles transiently (the plan decides the order on every run, not the
 * framework's memory of the last one). A bundle that cannot resolve or start is logged as an error
 * with the framework's reason and the rest still start.
 * <p>
 * Until the configuration is in place (Configuration Admin has the features' and {@code etc/}'s
 * configurations), the bundles start one after the other in plan order, so that no component
 * activates without its configuration. The rest, where the time of a start goes (the HTTP runtime,
 * the engine, the tools), are resolved together and then started by {@value #THREADS_PROPERTY}
 * threads (default: two, one on a single processor), each taking the next bundle in plan order: a
 * start is mostly one thread's work (component activation, class loading), and the second core
 * would otherwise be left to the JIT. The components wait for each other's services through
 * Declarative Services, as they do for a bundle installed later.
 */
final class BundleStarter {

    private static final Logger LOG = LoggerFactory.getLogger(BundleStarter.class);

    /** The system property that sets how many threads start the bundles once configured: {@value}. */
    static final String THREADS_PROPERTY = "quiver.start.threads";

    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private final FrameworkWiring wiring;
    private final int threads;

    BundleStarter(FrameworkWiring wiring) {
        this(wiring, Integer.getInteger(THREADS_PROPERTY, Math.min(2, Runtime.getRuntime().availableProcessors())));
    }

    BundleStarter(FrameworkWiring wiring, int threads) {
        this.wiring = wiring;
        this.threads = Math.max(1, threads);
    }

    /**
     * @param afterEach  called after each bundle of the sequential part, started or not (the
     *                   launcher applies configurations as soon as Configuration Admin is up)
     * @param configured whether the configuration is in place, asked after each bundle of the
     *                   sequential part: once it says so, the rest start in parallel
     */
    void startAll(List<Bundle> bundles, Consumer<Bundle> afterEach, BooleanSupplier configured) {
        // one resolution for all of them, instead of one per start (one that fails is retried by its
        // start, which reports why)
        wiring.resolveBundles(bundles);
        int i = 0;
        while (i < bundles.size()) {
            Bundle b = bundles.get(i++);
            start(b);
            afterEach.accept(b);
            if (threads > 1 && configured.getAsBoolean()) {
                break;
            }
        }
        startTogether(bundles.subList(i, bundles.size()));
        for (Bundle b : bundles) {
            if (isFragment(b) && b.getState() == Bundle.INSTALLED) {
                problem(b, "(a fragment) did not resolve", null);
            }
        }
    }

    private void startTogether(List<Bundle> rest) {
        if (rest.isEmpty()) {
            return;
        }
        AtomicInteger next = new AtomicInteger();
        Runnable worker = () -> {
            for (int j = next.getAndIncrement(); j < rest.size(); j = next.getAndIncrement()) {
                start(rest.get(j));
            }
        };
        List<Thread> helpers = new ArrayList<>();
        for (int t = 1; t < threads && t < rest.size(); t++) {
            Thread helper = new Thread(worker, "quiver-start-" + t);
            helper.start();
            helpers.add(helper);
        }
        worker.run();
        boolean interrupted = false;
        for (Thread helper : helpers) {
            while (true) {
                try {
                    helper.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the start is not over until every bundle had its turn
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void start(Bundle b) {
        if (isFragment(b) || !frameworkActive()) {
            return; // a stop overtook the start (a signal): the rest is not started, and not a problem
        }
        long t = System.nanoTime();
        try {
            b.start(Bundle.START_TRANSIENT);
            LOG.debug("Started {} in {} ms", b.getSymbolicName(), (System.nanoTime() - t) / 1_000_000L);
        } catch (BundleException | RuntimeException e) {
            if (frameworkActive()) {
                problem(b, "did not start: " + reason(e), e);
            }
        }
    }

    private boolean frameworkActive() {
        return wiring.getBundle().getState() == Bundle.ACTIVE;
    }

    /** One line per bundle that did not resolve or start. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    static boolean isFragment(Bundle b) {
        BundleRevision revision = b.adapt(BundleRevision.class);
        return revision != null && (revision.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
    }

    private void problem(Bundle b, String what, Throwable e) {
        String line = b.getSymbolicName() + " " + b.getVersion() + " (" + b.getLocation() + ") " + what;
        problems.add(line);
        if (e != null && !(e instanceof BundleException be && be.getType() == BundleException.RESOLVE_ERROR)) {
            LOG.error(line, e);
        } else {
            LOG.error(line);
        }
    }

    private static String reason(Throwable e) {
        StringBuilder b = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            b.append("; caused by ").append(c);
        }
        return b.toString();
    }
}
