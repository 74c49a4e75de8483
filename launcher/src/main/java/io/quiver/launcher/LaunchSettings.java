package io.quiver.launcher;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a start needs. {@link Quiver.Builder} and the command line both produce one.
 *
 * @param features            feature names or {@code .json} files; {@code core} is always added first
 * @param port                HTTP port; 0 lets the OS choose
 * @param bind                address the HTTP server listens on
 * @param etc                 the configuration folder FileInstall watches
 * @param deploy              the bundle folder FileInstall watches
 * @param data                framework storage kept between runs, or null for a fresh temporary
 *                            folder deleted on stop
 * @param frameworkProperties extra framework properties; they win over the launcher's
 * @param startTimeout        how long {@link Quiver#start()} waits for the endpoint
 * @param awaitEndpoint       whether {@link Quiver#start()} waits for the MCP endpoint (it never
 *                            does when no HTTP runtime is installed)
 */
public record LaunchSettings(List<String> features, int port, String bind, Path etc, Path deploy, Path data,
                             Map<String, String> frameworkProperties, Duration startTimeout, boolean awaitEndpoint) {

    public static final List<String> DEFAULT_FEATURES = List.of("core", "http", "tools-default");
    /** The features of {@code run --stdio} when none are named: no HTTP. */
    public static final List<String> STDIO_FEATURES = List.of("core", "stdio", "tools-default");
    public static final int DEFAULT_PORT = 7711;
    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(15);

    public LaunchSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(etc, "etc");
        Objects.requireNonNull(deploy, "deploy");
        Objects.requireNonNull(startTimeout, "startTimeout");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 0 and 65535");
        }
        if (bind.isBlank()) {
            throw new IllegalArgumentException("the bind address is empty");
        }
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("the start timeout must be positive");
        }
        List<String> f = new ArrayList<>();
        f.add("core");
        for (String name : features) {
            String n = name.trim();
            if (n.isEmpty()) {
                throw new IllegalArgumentException("an empty feature name");
            }
            if (!f.contains(n)) {
                f.add(n);
            }
        }
        features = List.copyOf(f);
        frameworkProperties = Collections.unmodifiableMap(new LinkedHashMap<>(frameworkProperties));
    }

    /**
     * Whether MCP is served on the process's stdin and stdout ({@code --stdio}): then stdout carries the
     * protocol and nothing else.
     */
    public boolean stdio() {
        return Boolean.parseBoolean(frameworkProperties.get(FrameworkProperties.STDIO));
    }

    /** The defaults of {@code ./quiver run}, relative to the current folder. */
    public static LaunchSettings defaults() {
        return new LaunchSettings(DEFAULT_FEATURES, DEFAULT_PORT, DEFAULT_BIND, Path.of("etc"), Path.of("deploy"),
                null, Map.of(), DEFAULT_START_TIMEOUT, true);
    }
}
