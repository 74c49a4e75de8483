package io.quiver.launcher;

import io.quiver.lib.feature.platform.PlatformLibraries;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The framework properties of a Quiver start. Bundles read their settings from here:
 * Felix HTTP the port and address, FileInstall the {@code deploy/} folder, anyone the
 * {@code quiver.*} values.
 */
final class FrameworkProperties {

    /** The slf4j packages the launcher's class path exports to the bundles (the logging backend lives there too). */
    static final String[] SLF4J_PACKAGES = {"org.slf4j", "org.slf4j.spi", "org.slf4j.event", "org.slf4j.helpers"};

    private FrameworkProperties() {
    }

    /** @param shared the libraries the launcher's class path provides, which the system bundle exports beside slf4j */
    static Map<String, Object> of(LaunchSettings settings, Storage storage, DirectoryWatch watch, SharedLibraries shared) {
        Map<String, Object> p = new HashMap<>();
        p.put("org.osgi.framework.storage", storage.folder().toString());
        // a temporary storage starts empty anyway (cleaning it would only delete the launcher's lock file, by which a
        // later start tells a folder a killed server left from one in use); a chosen one keeps its bundles between runs
        p.put("org.osgi.framework.storage.clean", "none");
        // Declarative Services keeps its reading of the bundles' component XML in the storage as it stops, for a kept
        // storage or one seeded from a template (StorageTemplate): ~60 ms of the start; a changed bundle is read again
        p.put("ds.cache.metadata", "true");
        // nobody else can use a fresh temporary folder: no lock file needed
        p.put("felix.cache.locking", storage.temporary() ? "false" : "true");
        String slf4j = slf4jExports(version("slf4j.version"));
        p.put("org.osgi.framework.system.packages.extra", shared.exports().isEmpty() ? slf4j : slf4j + "," + shared.exports());
        p.put("felix.log.logger", new FelixLogger());

        p.put("org.osgi.service.http.port", Integer.toString(settings.port()));
        p.put("org.apache.felix.http.host", settings.bind());
        // Jetty's accept backlog (its default, 50, drops the SYNs of a burst of new clients: each then
        // waits a second for its retry)
        p.put("org.apache.felix.http.jetty.acceptQueueSize", "1024");
        p.putAll(watch.frameworkProperties());
        // With Felix HTTP's own settings in etc/ (HTTPS, say), Jetty waits for them and starts once, with
        // them: on its defaults first, it would listen in plain HTTP until the file is read, then restart
        // (the transport keeps it serving if the file is deleted later). A system property still decides.
        if (System.getProperty(HTTP_REQUIRE_CONFIG) == null && httpConfiguration(watch.etc()) != null) {
            p.put(HTTP_REQUIRE_CONFIG, "true");
        }
        // Felix Event Admin starts half its pool as delivery threads at once (20: ten idle threads); the
        // audit trail and the framework's events need few: 4 (two for asynchronous delivery) keeps ~1 MiB
        // of idle memory. A system property of the same name still decides.
        if (System.getProperty(EVENT_ADMIN_THREADS) == null) {
            p.put(EVENT_ADMIN_THREADS, "4");
        }

        p.put("quiver.version", version("quiver.version"));
        p.put("quiver.port", Integer.toString(settings.port()));
        p.put("quiver.bind", settings.bind());
        p.put("quiver.etc", watch.etc().toString());
        p.put("quiver.deploy", watch.deploy().toString());
        p.put("quiver.features", String.join(",", settings.features()));
        if (!shared.libraries().isEmpty()) {
            p.put(PlatformLibraries.PROPERTY, shared.libraries().format());
        }
        if (authenticationConfigured(watch.etc())) {
            // the transport refuses everyone until the authenticators are up, never serves anonymously meanwhile
            p.put(AUTH_REQUIRED, "true");
        }
        long rules = scopeRules(watch.etc());
        if (rules > 0) {
            // the catalog shows what rules may scope to no one until that many have arrived
            p.put(SCOPE_RULES, Long.toString(rules));
        }
        // the core feature brings the permissions bundle's policy: until it is there the engine allows nothing, and
        // it allows nothing until the grants of etc/ have arrived (a call a moment early is never let through unchecked)
        p.put(POLICY_REQUIRED, "true");
        long grants = countFiles(watch.etc(), GRANT_FILES);
        if (grants > 0) {
            p.put(GRANTS, Long.toString(grants));
        }

        p.putAll(settings.frameworkProperties());
        Path templates = storage.temporary() ? StorageTemplate.folderOfTemplates() : null;
        if (templates != null) {
            // a template's jars are hard links to this storage's: out of the file tools' reach as the storage is
            p.merge(Quiver.PRIVATE_FOLDERS, templates.toString(), (a, b) -> a + File.pathSeparator + b);
        }
        return p;
    }

    /** Felix Event Admin's thread pool size. */
    static final String EVENT_ADMIN_THREADS = "org.apache.felix.eventadmin.ThreadPoolSize";

    /** Felix HTTP starts Jetty only once its configuration (PID {@value #HTTP_PID}) exists. */
    static final String HTTP_REQUIRE_CONFIG = "org.apache.felix.http.require.config";
    /** Felix HTTP's own configuration PID. */
    static final String HTTP_PID = "org.apache.felix.http";

    /** Set when {@code etc/} configures authentication. */
    static final String AUTH_REQUIRED = "quiver.auth.required";
    /** Set by {@code --insecure-no-auth}: serving beyond loopback without authentication is allowed. */
    static final String INSECURE_NO_AUTH = "quiver.auth.insecureNoAuth";
    /** Set by {@code --stdio}: the stdio transport serves MCP on the process's stdin and stdout. */
    static final String STDIO = "quiver.stdio";

    /** Set always: the core feature's permissions bundle brings the call policy (the engine allows nothing until it is in). */
    static final String POLICY_REQUIRED = "quiver.policy.required";
    /** How many grant files {@code etc/} holds at start (the permissions bundle allows nothing until they are grants). */
    static final String GRANTS = "quiver.permission.grants";
    /** The names of grant files: {@code io.quiver.permissions.grant-NAME.cfg}. */
    static final String GRANT_FILES = "io.quiver.permissions.grant-";
    /** How many catalog scope rules {@code etc/} holds at start. */
    static final String SCOPE_RULES = "quiver.scope.rules";

    static long scopeRules(Path etc) {
        return countFiles(etc, "io.quiver.scope-");
    }

    /**
     * How many configuration files ({@code .cfg}, {@code .config}) of {@code etc/} have names starting so: regular files
     * only, as the start waits for (a folder or a broken link of that name never becomes a configuration).
     */
    static long countFiles(Path etc, String prefix) {
        try (Stream<Path> files = Files.list(etc)) {
            return files.filter(Files::isRegularFile).map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith(prefix) && (n.endsWith(".cfg") || n.endsWith(".config")))
                    .count();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Whether the folder holds an authentication configuration (JWT or an API key). */
    static boolean authenticationConfigured(Path etc) {
        try (Stream<Path> files = Files.list(etc)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".cfg") || n.endsWith(".config"))
                    .anyMatch(n -> n.startsWith("io.quiver.auth.jwt.") || n.startsWith(ApiKeyCommand.FACTORY_PID + "-"));
        } catch (IOException e) {
            return false;
        }
    }

    /** The file of Felix HTTP's own configuration in {@code etc/}, or null. */
    static Path httpConfiguration(Path etc) {
        for (String suffix : new String[] {".cfg", ".config"}) {
            Path file = etc.resolve(HTTP_PID + suffix);
            if (Files.isRegularFile(file)) {
                return file;
            }
        }
        return null;
    }

    /**
     * The port plain HTTP will listen on: {@code port} (from {@code --port}), or the one {@code etc/}'s Felix
     * HTTP file sets ({@code org.osgi.service.http.port}); -1 when that file turns plain HTTP off
     * ({@code org.apache.felix.http.enable = false}, HTTPS only). Read in the file's {@code .cfg} or typed
     * {@code .config} form ({@code B"false"}, {@code I"8080"}).
     */
    static int plainHttpPort(Path etc, int port) {
        Path file = httpConfiguration(etc);
        if (file == null) {
            return port;
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException | IllegalArgumentException e) {
            return port; // Felix HTTP will say what is wrong with it
        }
        if ("false".equalsIgnoreCase(untyped(p.getProperty("org.apache.felix.http.enable")))) {
            return -1;
        }
        String own = untyped(p.getProperty("org.osgi.service.http.port"));
        try {
            return own == null ? port : Integer.parseInt(own);
        } catch (NumberFormatException e) {
            return port;
        }
    }

    /** A value of a {@code .cfg} or typed {@code .config} file without its type letter and quotes. */
    private static String untyped(String value) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        if (v.length() > 1 && Character.isLetter(v.charAt(0)) && v.charAt(1) == '"') {
            v = v.substring(1);
        }
        return v.replace("\"", "").trim();
    }

    static String slf4jExports(String version) {
        StringBuilder b = new StringBuilder();
        for (String pkg : SLF4J_PACKAGES) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(pkg).append(";version=\"").append(version).append('"');
        }
        return b.toString();
    }

    /** A version the build wrote into launcher.properties. */
    static String version(String key) {
        Properties p = new Properties();
        try (InputStream in = FrameworkProperties.class.getResourceAsStream("launcher.properties")) {
            if (in == null) {
                throw new IllegalStateException("launcher.properties is missing from the launcher");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String v = p.getProperty(key);
        if (v == null || v.contains("${")) {
            throw new IllegalStateException("launcher.properties has no " + key);
        }
        return v;
    }
}
