package io.quiver.shell.internal;

import io.quiver.api.operator.BundleState;
import io.quiver.lib.feature.platform.BundleJar;
import io.quiver.lib.feature.platform.NameHolder;
import io.quiver.lib.feature.platform.PlatformLibraries;
import io.quiver.lib.feature.problems.BundleProblems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * {@code quiver:bundles}, {@code install}, {@code update} and {@code uninstall}: the bundle life
 * cycle for operators. A bundle that fails to start stays installed and is reported, with the
 * framework's reason; nothing else is touched. Update and uninstall refresh the bundle's wiring
 * (what FileInstall does), waiting a bounded time. Install refuses a bundle whose symbolic name is
 * already installed (the platform's bundles, the libraries the class path provides in their place, any
 * other bundle), as deploy/ and {@code bundle_install} do: a second copy would run beside the first,
 * and one of the platform's would take the server over; update refuses new content whose name another
 * bundle holds. Both read the jar once ({@link BundleJar}) and hand the framework what they checked.
 * Gogo's own {@code felix:install} remains for an operator who means it.
 */
final class BundleOperations {

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:.*");
    private static final Duration REFRESH_WAIT = Duration.ofSeconds(30);

    private final BundleContext context;

    BundleOperations(BundleContext context) {
        this.context = context;
    }

    String list() {
        Table table = new Table(CatalogReport.CELL, "ID", "STATE", "SYMBOLIC NAME", "VERSION", "LOCATION");
        for (Bundle bundle : context.getBundles()) {
            table.row(bundle.getBundleId(), state(bundle.getState()), bundle.getSymbolicName(), bundle.getVersion(),
                    bundle.getLocation());
        }
        return table + CatalogReport.count(table.size(), "bundle");
    }

    /** Installs a bundle from a URL, or a file path (relative to the working directory), and starts it. */
    String install(String urlOrPath) {
        String location;
        try {
            location = location(urlOrPath);
        } catch (IllegalArgumentException e) {
            return e.getMessage() + "\n";
        }
        Bundle existing = context.getBundle(location);
        if (existing != null) {
            return "Already installed from " + location + ": bundle " + BundleProblems.label(existing) + ", "
                    + state(existing.getState()) + " (quiver:update " + existing.getBundleId() + " reloads it)\n";
        }
        // read once and looked at before the framework sees it: a refused jar is never installed, not even
        // for a moment, and a URL is fetched once
        try (BundleJar content = BundleJar.read(location)) {
            String clash = clash(content.symbolicName(), null);
            if (clash != null) {
                return "Refused " + location + ": " + clash + "\n";
            }
            Bundle bundle = content.install(context, location);
            return "Installed bundle " + BundleProblems.label(bundle) + " from " + location + "\n" + start(bundle);
        } catch (BundleException | SecurityException | IllegalStateException | IOException e) {
            return "Cannot install " + location + ": " + e.getMessage() + "\n";
        }
    }

    /**
     * Why a bundle named {@code name} must not be installed beside what runs, or null; {@code self} is the
     * bundle being updated (its own name is no clash), or null.
     */
    private String clash(String name, Bundle self) {
        if (name == null) {
            return null;
        }
        PlatformLibraries libraries = PlatformLibraries.parse(context.getProperty(PlatformLibraries.PROPERTY));
        Optional<NameHolder> holder = NameHolder.of(libraries, context, name,
                b -> self != null && b.getBundleId() == self.getBundleId());
        if (holder.isEmpty()) {
            return null;
        }
        NameHolder h = holder.get();
        if (h.library() != null) {
            return name + " is part of the running platform (" + name + " " + h.library().version()
                    + ", from the server's class path)";
        }
        Bundle other = h.bundle();
        if (h.platform()) {
            return name + " is part of the running platform (bundle " + BundleProblems.label(other) + ")";
        }
        String held = name + " is already installed (bundle " + BundleProblems.label(other) + " from " + other.getLocation() + ")";
        return self != null ? held : held + "; quiver:update " + other.getBundleId()
                + " reloads that one, felix:install installs a second copy anyway";
    }

    String update(String idOrName) {
        Bundle bundle;
        try {
            bundle = find(idOrName);
        } catch (IllegalArgumentException e) {
            return e.getMessage() + "\n";
        }
        if (bundle.getBundleId() == 0) {
            return "Refusing to update the system bundle: restart the server instead.\n";
        }
        // the new content is read first, from where the framework would read it: a jar that now carries
        // a name another bundle or the platform holds is refused, and the bundle keeps what it had
        String from = updateLocation(bundle);
        try (BundleJar content = BundleJar.read(from)) {
            String clash = clash(content.symbolicName(), bundle);
            if (clash != null) {
                return "Refused the update of bundle " + BundleProblems.label(bundle) + " from " + from + ": " + clash
                        + "\nThe bundle is unchanged.\n";
            }
            content.update(bundle);
        } catch (BundleException | SecurityException | IllegalStateException | IOException e) {
            return "Cannot update bundle " + BundleProblems.label(bundle) + ": " + e.getMessage() + "\n";
        }
        String refreshed = refresh(bundle);
        String out = "Updated bundle " + BundleProblems.label(bundle) + " from " + from + "\n"
                + refreshed;
        if (bundle.getState() == Bundle.INSTALLED) {
            out += start(bundle);
        } else {
            out += "State: " + state(bundle.getState()) + "\n";
        }
        return out;
    }

    String uninstall(String idOrName) {
        Bundle bundle;
        try {
            bundle = find(idOrName);
        } catch (IllegalArgumentException e) {
            return e.getMessage() + "\n";
        }
        if (bundle.getBundleId() == 0) {
            return "Refusing to uninstall the system bundle: stop the server instead.\n";
        }
        String label = BundleProblems.label(bundle);
        try {
            bundle.uninstall();
        } catch (BundleException | SecurityException | IllegalStateException e) {
            return "Cannot uninstall bundle " + label + ": " + e.getMessage() + "\n";
        }
        return "Uninstalled bundle " + label + "\n" + refresh(bundle);
    }

    /** Starts the bundle; on failure the bundle stays installed and the framework's reason is told. */
    private static String start(Bundle bundle) {
        if (isFragment(bundle)) {
            return "State: " + state(bundle.getState()) + " (a fragment: it is never started)\n";
        }
        try {
            bundle.start();
            return "State: " + state(bundle.getState()) + "\n";
        } catch (BundleException | SecurityException | IllegalStateException e) {
            return "Not started: " + e.getMessage() + "\nState: " + state(bundle.getState())
                    + " (see quiver:problems; fix it and run quiver:update " + bundle.getBundleId()
                    + ", or quiver:uninstall " + bundle.getBundleId() + ")\n";
        }
    }

    /** Refreshes the wiring of the bundle and its dependents, waiting at most {@link #REFRESH_WAIT}. */
    private String refresh(Bundle bundle) {
        FrameworkWiring wiring = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkWiring.class);
        CountDownLatch done = new CountDownLatch(1);
        wiring.refreshBundles(List.of(bundle), event -> done.countDown());
        try {
            if (!done.await(REFRESH_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                return "The wiring refresh has not finished after " + REFRESH_WAIT.toSeconds()
                        + " s; it goes on in the background.\n";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "Interrupted while the wiring refresh runs; it goes on in the background.\n";
        }
        return "";
    }

    /** A bundle by id, or by symbolic name when exactly one bundle has it. */
    Bundle find(String idOrName) {
        String key = idOrName == null ? "" : idOrName.trim();
        if (key.matches("\\d+")) {
            Bundle bundle = context.getBundle(Long.parseLong(key));
            if (bundle == null) {
                throw new IllegalArgumentException("No bundle with id " + key + " (quiver:bundles lists them).");
            }
            return bundle;
        }
        List<Bundle> named = new ArrayList<>();
        for (Bundle bundle : context.getBundles()) {
            if (key.equals(bundle.getSymbolicName())) {
                named.add(bundle);
            }
        }
        if (named.size() == 1) {
            return named.get(0);
        }
        throw new IllegalArgumentException(named.isEmpty()
                ? "No bundle with id or symbolic name '" + key + "' (quiver:bundles lists them)."
                : "Several bundles are named " + key + ": give the id (quiver:bundles lists them).");
    }

    /**
     * The location for a URL ({@code file:}, {@code http:}, ...) as it is, or for a file path: its
     * absolute {@code file:} URI. A path that does not exist is refused with the path named.
     */
    static String location(String urlOrPath) {
        String text = urlOrPath.trim();
        // "C:\..." is a path, not a URL with scheme "c"
        if (SCHEME.matcher(text).matches() && !text.matches("[A-Za-z]:[\\\\/].*")) {
            return text;
        }
        Path path = Paths.get(text).toAbsolutePath().normalize();
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("No such file: " + path);
        }
        return path.toUri().toString();
    }

    /** Where {@code Bundle.update()} would read a bundle's new content: its update location, else its location. */
    private static String updateLocation(Bundle bundle) {
        String declared = bundle.getHeaders("").get(Constants.BUNDLE_UPDATELOCATION);
        return declared != null && !declared.isBlank() ? declared.trim() : bundle.getLocation();
    }

    private static boolean isFragment(Bundle bundle) {
        return bundle.getHeaders("").get(Constants.FRAGMENT_HOST) != null;
    }

    static String state(int state) {
        return BundleState.name(state);
    }
}
