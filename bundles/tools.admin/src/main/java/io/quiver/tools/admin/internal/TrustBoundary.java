package io.quiver.tools.admin.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

/**
 * What a bundle could do to the server's trust boundary: register an {@code Authenticator} (who
 * callers are), a {@code CallPolicy}, a host channel or call listener (what callers may do, what is
 * recorded), or write configurations (the grants and keys in {@code etc/} are configurations). A
 * bundle needs the packages of those types to do so through the OSGi service registry, so its
 * manifest tells: {@code Import-Package}, {@code DynamicImport-Package} (wildcards included),
 * {@code Require-Bundle} of a bundle that exports them (or requires one that does), and {@code Fragment-Host} of a
 * bundle that reaches or exports them, or of the framework itself.
 *
 * <p>This keeps an agent from extending its own rights through {@code bundle_install}; it is not a
 * sandbox (a bundle runs arbitrary code in the server, which is why installing one is admin-only).
 */
final class TrustBoundary {

    static final List<String> GUARDED = List.of("io.quiver.api.auth", "io.quiver.api.call", "org.osgi.service.cm");
    /** The pseudo-header {@link #reached}'s {@code installed} function gives each bundle's id in. */
    static final String BUNDLE_ID = "Bundle-Id";
    static final String SYSTEM_BUNDLE = "system.bundle";
    private static final String IMPORT = "Import-Package";
    private static final String DYNAMIC_IMPORT = "DynamicImport-Package";
    private static final String REQUIRE_BUNDLE = "Require-Bundle";
    private static final String FRAGMENT_HOST = "Fragment-Host";
    private static final String EXPORT = "Export-Package";
    /** Quiver's own packages: a bundle exporting one (a later version of its API, say) would take the server over. */
    private static final String QUIVER = "io.quiver.";

    private TrustBoundary() {
    }

    /**
     * The guarded packages the manifest reaches, with the header that reaches them; empty when none.
     * {@code installed} gives the main headers of the installed bundles of a symbolic name ({@code system.bundle}
     * included): a {@code Require-Bundle} reaches what the bundles it names export (and what they require in turn),
     * a {@code Fragment-Host} what its host reaches or exports; a bundle named there that is not installed could
     * be anything once it is, so it counts as reaching the boundary.
     */
    static List<String> reached(Manifest manifest, Function<String, List<Map<String, String>>> installed) {
        Attributes main = manifest.getMainAttributes();
        Map<String, String> headers = new HashMap<>();
        for (String name : new String[] {IMPORT, DYNAMIC_IMPORT, REQUIRE_BUNDLE, FRAGMENT_HOST, EXPORT}) {
            if (main.getValue(name) != null) {
                headers.put(name, main.getValue(name));
            }
        }
        return List.copyOf(reached(headers, installed, new HashSet<>()));
    }

    private static Set<String> reached(Map<String, String> headers, Function<String, List<Map<String, String>>> installed,
            Set<String> seen) {
        Set<String> found = new LinkedHashSet<>();
        for (String pkg : packages(headers.get(EXPORT))) {
            if (GUARDED.contains(pkg) || pkg.startsWith(QUIVER)) {
                // a later version of a package the server's bundles import would be wired to them at the next
                // resolution (a restart): the engine, the authenticators would run the bundle's classes
                found.add(pkg + " (Export-Package)");
            }
        }
        for (String pkg : packages(headers.get(IMPORT))) {
            if (GUARDED.contains(pkg)) {
                found.add(pkg + " (Import-Package)");
            }
        }
        for (String pattern : packages(headers.get(DYNAMIC_IMPORT))) {
            for (String guarded : GUARDED) {
                if (covers(pattern, guarded)) {
                    found.add(guarded + " (DynamicImport-Package " + pattern + ")");
                }
            }
        }
        for (String bundle : packages(headers.get(REQUIRE_BUNDLE))) {
            for (String via : through(bundle, installed, seen, false)) {
                found.add(via + " (Require-Bundle " + bundle + ")");
            }
        }
        List<String> hosts = packages(headers.get(FRAGMENT_HOST));
        if (!hosts.isEmpty()) {
            String host = hosts.get(0);
            for (String via : through(host, installed, seen, true)) {
                found.add(via + " (Fragment-Host " + host + ")");
            }
        }
        return found;
    }

    /**
     * What a bundle named in another's header gives that other: the guarded packages it exports, what the bundles it
     * requires give it, and, for a fragment's host ({@code host}), what the host reaches itself.
     */
    private static List<String> through(String name, Function<String, List<Map<String, String>>> installed, Set<String> seen,
            boolean host) {
        if (host && (name.equals(SYSTEM_BUNDLE) || isFramework(installed.apply(name)))) {
            return List.of("every package (a framework extension)");
        }
        if (!seen.add((host ? "host:" : "bundle:") + name)) {
            return List.of();
        }
        List<Map<String, String>> bundles = installed.apply(name);
        if (bundles.isEmpty()) {
            return List.of("what " + name + " would export (it is not installed)");
        }
        Set<String> found = new LinkedHashSet<>();
        for (Map<String, String> headers : bundles) {
            for (String pkg : packages(headers.get(EXPORT))) {
                if (GUARDED.contains(pkg)) {
                    found.add(pkg);
                }
            }
            Map<String, String> followed = new HashMap<>();
            followed.put(REQUIRE_BUNDLE, headers.get(REQUIRE_BUNDLE));
            if (host) {
                followed.putAll(headers);
                followed.remove(EXPORT); // what it exports reaches the fragment as above: its guarded packages
            }
            followed.values().removeIf(v -> v == null);
            found.addAll(reached(followed, installed, seen));
        }
        return List.copyOf(found);
    }

    /** Whether the bundles of a name are the framework itself (the system bundle has id 0). */
    private static boolean isFramework(List<Map<String, String>> bundles) {
        return bundles.stream().anyMatch(h -> "0".equals(h.get(BUNDLE_ID)));
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
