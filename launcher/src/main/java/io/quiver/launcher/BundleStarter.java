package io.quiver.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleException;
import org.osgi.framework.wiring.BundleRevision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the feature bundles one after the other, in plan order, transiently (the plan decides the
 * order on every run, not the framework's memory of the last one). A bundle that cannot resolve or
 * start is logged as an error with the framework's reason and the rest still start.
 */
final class BundleStarter {

    private static final Logger LOG = LoggerFactory.getLogger(BundleStarter.class);

    private final List<String> problems = new ArrayList<>();

    /**
     * @param afterEach called after every bundle, started or not (the launcher applies
     *                  configurations as soon as Configuration Admin is up)
     */
    void startAll(List<Bundle> bundles, Consumer<Bundle> afterEach) {
        for (Bundle b : bundles) {
            if (!isFragment(b)) {
                long t = System.nanoTime();
                try {
                    b.start(Bundle.START_TRANSIENT);
                    LOG.debug("Started {} in {} ms", b.getSymbolicName(), (System.nanoTime() - t) / 1_000_000L);
                } catch (BundleException | RuntimeException e) {
                    problem(b, "did not start: " + reason(e), e);
                }
            }
            afterEach.accept(b);
        }
        for (Bundle b : bundles) {
            if (isFragment(b) && b.getState() == Bundle.INSTALLED) {
                problem(b, "(a fragment) did not resolve", null);
            }
        }
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
