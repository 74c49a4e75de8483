package io.quiver.tools.admin.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

/**
 * What a bundle could do to the server's trust boundary: register an {@code Authenticator} (who
 * callers are), a {@code CallPolicy}, a host channel or call listener (what callers may do, what is
 * recorded), or write configurations (the grants and keys in {@code etc/} are configurations). A
 * bundle needs the packages of those types to do so through the OSGi service registry, so its
 * manifest tells: {@code Import-Package}, {@code DynamicImport-Package} (wildcards included) and
 * {@code Require-Bundle} of the API bundle.
 *
 * <p>This keeps an agent from extending its own rights through {@code bundle_install}; it is not a
 * sandbox (a bundle runs arbitrary code in the server, which is why installing one is admin-only).
 */
final class TrustBoundary {

    static final List<String> GUARDED = List.of("io.quiver.api.auth", "io.quiver.api.call", "org.osgi.service.cm");

    private TrustBoundary() {
    }

    /** The guarded packages the manifest reaches, with the header that reaches them; empty when none. */
    static List<String> reached(Manifest manifest) {
        Attributes main = manifest.getMainAttributes();
        List<String> found = new ArrayList<>();
        for (String pkg : packages(main.getValue("Import-Package"))) {
            if (GUARDED.contains(pkg)) {
                found.add(pkg + " (Import-Package)");
            }
        }
        for (String pattern : packages(main.getValue("DynamicImport-Package"))) {
            for (String guarded : GUARDED) {
                if (covers(pattern, guarded)) {
                    found.add(guarded + " (DynamicImport-Package " + pattern + ")");
                }
            }
        }
        for (String bundle : packages(main.getValue("Require-Bundle"))) {
            if (bundle.equals("io.quiver.api")) {
                found.add("io.quiver.api.auth, io.quiver.api.call (Require-Bundle io.quiver.api)");
            }
        }
        return List.copyOf(found);
    }

    private static boolean covers(String pattern, String pkg) {
        if (pattern.equals("*")) {
            return true;
        }
        if (pattern.endsWith(".*")) {
            return pkg.startsWith(pattern.substring(0, pattern.length() - 1));
        }
        return pattern.equals(pkg);
    }

    /** The names of a manifest header's clauses (attributes and directives dropped; quoted commas kept). */
    static List<String> packages(String header) {
        List<String> names = new ArrayList<>();
        if (header == null) {
            return names;
        }
        StringBuilder clause = new StringBuilder();
        boolean quoted = false;
        for (char c : (header + ",").toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                // a clause may name several packages: a;b;version=1
                for (String part : clause.toString().split(";")) {
                    String p = part.trim();
                    if (p.contains("=") || p.isEmpty()) {
                        break;
                    }
                    names.add(p);
                }
                clause.setLength(0);
            } else {
                clause.append(c);
            }
        }
        return names;
    }
}
