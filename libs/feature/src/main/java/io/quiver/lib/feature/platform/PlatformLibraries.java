package io.quiver.lib.feature.platform;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The libraries the server's class path provides in place of their bundles (Jackson, when the launcher
 * carries the very version its features name), as the launcher names them to the bundles in the
 * framework property {@value #PROPERTY}. They are part of the platform as much as an installed feature
 * bundle is: deploy/, {@code bundle_install} and {@code quiver:install} refuse a second copy of one
 * ({@link NameHolder}), and a feature naming one finds it there. The property's entries are
 * {@code <symbolic name>;version=<bundle version>;maven=<groupId>:<artifactId>:<version>}, comma-separated.
 * A package of its own, with nothing but the JDK and the OSGi framework API ({@link NameHolder}): a bundle
 * that only checks the property embeds this and not the feature reader (and its Jackson).
 */
public final class PlatformLibraries {

    public static final String PROPERTY = "quiver.platform.libraries";

    public static final PlatformLibraries NONE = new PlatformLibraries(List.of());

    /** One library: its bundle's symbolic name and version, and its Maven coordinates ({@code g:a:v}). */
    public record Library(String symbolicName, String version, String coordinates) {
    }

    private final List<Library> libraries;

    public PlatformLibraries(List<Library> libraries) {
        this.libraries = List.copyOf(libraries);
    }

    /** The libraries a value of {@value #PROPERTY} names; an entry the launcher would not write is skipped. */
    public static PlatformLibraries parse(String property) {
        List<Library> found = new ArrayList<>();
        for (String entry : property == null ? new String[0] : property.split(",")) {
            String[] parts = entry.trim().split(";");
            String version = null;
            String maven = null;
            for (int i = 1; i < parts.length; i++) {
                String part = parts[i].trim();
                if (part.startsWith("version=")) {
                    version = part.substring("version=".length());
                } else if (part.startsWith("maven=")) {
                    maven = part.substring("maven=".length());
                }
            }
            if (!parts[0].isBlank() && version != null && maven != null && maven.split(":", -1).length == 3) {
                found.add(new Library(parts[0].trim(), version, maven));
            }
        }
        return new PlatformLibraries(found);
    }

    /** The value of {@value #PROPERTY} for these libraries ("" for none). */
    public String format() {
        StringJoiner value = new StringJoiner(",");
        for (Library l : libraries) {
            value.add(l.symbolicName() + ";version=" + l.version() + ";maven=" + l.coordinates());
        }
        return value.toString();
    }

    public boolean isEmpty() {
        return libraries.isEmpty();
    }

    /** The library whose bundle has this symbolic name. */
    public Optional<Library> bySymbolicName(String symbolicName) {
        return libraries.stream().filter(l -> l.symbolicName().equals(symbolicName)).findFirst();
    }

    /** Whether one of the libraries is the plain jar of these coordinates ({@code groupId:artifactId:version}). */
    public boolean provides(String coordinates) {
        return libraries.stream().anyMatch(l -> l.coordinates().equals(coordinates));
    }
}
