package io.quiver.deployer.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.osgi.framework.BundleContext;

/**
 * The libraries the server's class path provides in place of their bundles (the launcher's framework
 * property {@value #PROPERTY}: Jackson, when the launcher carries the very version its features name).
 * They are part of the platform as much as an installed feature bundle is: deploy/ refuses a second
 * copy of one, and a feature naming one finds it there.
 */
final class PlatformLibraries {

    /** Entries {@code <symbolic name>;version=<version>;maven=<groupId>:<artifactId>:<version>}, comma-separated. */
    static final String PROPERTY = "quiver.platform.libraries";

    /** One library: its bundle's symbolic name and version, and its Maven coordinates. */
    record Library(String symbolicName, String version, String maven) {
    }

    private final List<Library> libraries;

    PlatformLibraries(String property) {
        List<Library> found = new ArrayList<>();
        if (property != null) {
            for (String entry : property.split(",")) {
                String[] parts = entry.trim().split(";");
                String version = "";
                String maven = "";
                for (int i = 1; i < parts.length; i++) {
                    String part = parts[i].trim();
                    if (part.startsWith("version=")) {
                        version = part.substring("version=".length());
                    } else if (part.startsWith("maven=")) {
                        maven = part.substring("maven=".length());
                    }
                }
                if (!parts[0].isBlank()) {
                    found.add(new Library(parts[0].trim(), version, maven));
                }
            }
        }
        this.libraries = List.copyOf(found);
    }

    static PlatformLibraries of(BundleContext context) {
        return new PlatformLibraries(context.getProperty(PROPERTY));
    }

    /** The library whose bundle has this symbolic name. */
    Optional<Library> bySymbolicName(String symbolicName) {
        return libraries.stream().filter(l -> l.symbolicName().equals(symbolicName)).findFirst();
    }

    /** Whether the class path provides the bundle of these Maven coordinates ({@code groupId:artifactId:version}). */
    boolean provides(String groupId, String artifactId, String version) {
        String coordinates = groupId + ":" + artifactId + ":" + version;
        return libraries.stream().anyMatch(l -> l.maven().equals(coordinates));
    }
}
