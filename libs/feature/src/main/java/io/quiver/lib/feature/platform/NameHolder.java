package io.quiver.lib.feature.platform;

import java.util.Optional;
import java.util.function.Predicate;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * What already holds a bundle symbolic name in a running framework: a library the class path provides in
 * place of its bundle, or an installed bundle. deploy/, {@code bundle_install} and {@code quiver:install}
 * refuse a second bundle of a held name: it would run beside the first, and a second copy of one of the
 * platform's would take the server over. Each says so in its own words.
 *
 * @param library the class-path library of that name, or {@code null}
 * @param bundle the installed bundle of that name, or {@code null} when {@code library} holds it
 */
public record NameHolder(PlatformLibraries.Library library, Bundle bundle) {

    /**
     * What holds a name: the class-path library first, then any installed bundle that {@code self} does not
     * accept (the bundle being installed or updated, which may keep its own name).
     */
    public static Optional<NameHolder> of(PlatformLibraries libraries, BundleContext context, String name,
            Predicate<Bundle> self) {
        Optional<PlatformLibraries.Library> library = libraries.bySymbolicName(name);
        if (library.isPresent()) {
            return Optional.of(new NameHolder(library.get(), null));
        }
        for (Bundle other : context.getBundles()) {
            if (name.equals(other.getSymbolicName()) && !self.test(other)) {
                return Optional.of(new NameHolder(null, other));
            }
        }
        return Optional.empty();
    }

    /** The symbolic name of a {@code Bundle-SymbolicName} value, without its attributes and directives; null for none. */
    public static String symbolicName(String header) {
        if (header == null) {
            return null;
        }
        String name = header.split(";", 2)[0].trim();
        return name.isEmpty() ? null : name;
    }

    /** Whether the holder is the platform's: a class-path library, the framework, or a bundle of its features. */
    public boolean platform() {
        return library != null || bundle.getBundleId() == 0 || bundle.getLocation().startsWith("quiver:");
    }
}
