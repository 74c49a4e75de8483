package io.quiver.tools.admin.internal;

import io.quiver.api.operator.BundleState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.wiring.FrameworkWiring;

/** Bundle helpers the admin tools share. */
final class Bundles {

    /** How long a tool waits for a wiring refresh after an uninstall. */
    static final Duration REFRESH_WAIT = Duration.ofSeconds(30);

    private Bundles() {
    }

    static BundleInfo info(Bundle bundle) {
        String name = bundle.getSymbolicName();
        return new BundleInfo(bundle.getBundleId(), name == null ? "" : name, bundle.getVersion().toString(),
                state(bundle.getState()), bundle.getLocation());
    }

    static String state(int state) {
        return BundleState.name(state);
    }

    /** {@code 12 io.quiver.tools.time 0.1.0 (ACTIVE)}. */
    static String describe(BundleInfo b) {
        return b.id() + " " + (b.symbolicName().isEmpty() ? b.location() : b.symbolicName() + " " + b.version())
                + " (" + b.state() + ")";
    }

    /** Refreshes the wiring of {@code bundle} and its dependents; true when it finished in time. */
    static boolean refresh(BundleContext context, Bundle bundle) throws InterruptedException {
        FrameworkWiring wiring = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkWiring.class);
        CountDownLatch done = new CountDownLatch(1);
        wiring.refreshBundles(List.of(bundle), event -> done.countDown());
        return done.await(REFRESH_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
