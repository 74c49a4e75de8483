package io.quiver.transport.http.internal;

import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * DNS-rebinding protection: the Host header and, when present, the Origin header must name an
 * allowed host. Loopback names are always allowed; others only when configured.
 */
final class RequestGuard {

    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final Set<String> hosts = new HashSet<>(LOOPBACK);
    private final Set<String> origins = new HashSet<>();

    RequestGuard(List<String> allowedHosts, List<String> allowedOrigins) {
        for (String host : allowedHosts) {
            if (!host.isBlank()) {
                hosts.add(host.trim().toLowerCase(Locale.ROOT));
            }
        }
        for (String origin : allowedOrigins) {
            if (!origin.isBlank()) {
                origins.add(stripSlash(origin.trim().toLowerCase(Locale.ROOT)));
            }
        }
    }

    /** Whether the Host header names an allowed host (any port). */
    boolean hostAllowed(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return false;
        }
        return hosts.contains(hostName(hostHeader.trim().toLowerCase(Locale.ROOT)));
    }

    /**
     * Whether a page of this origin may read the endpoint's answers (CORS): only an origin {@code allowedOrigins}
     * names. Being on an allowed host lets a page's request in, not its script read the answer: every page served
     * on localhost would otherwise act as the loopback server's operator.
     */
    boolean originListed(String origin) {
        return origin != null && (origins.contains(stripSlash(origin.trim().toLowerCase(Locale.ROOT))) || origins.contains("*"));
    }

    /** Whether the Origin header is absent, an allowed origin, or an http(s) origin on an allowed host. */
    boolean originAllowed(String origin) {
        if (origin == null) {
            return true;
        }
        String normalized = stripSlash(origin.trim().toLowerCase(Locale.ROOT));
        if (origins.contains(normalized) || origins.contains("*")) {
            return true;
        }
        try {
            URI uri = new URI(normalized);
            String scheme = uri.getScheme();
            if (uri.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
                return false;
            }
            return hosts.contains(uri.getHost());
        } catch (Exception e) {
            return false;
        }
    }

    /** The host part of a Host header value: {@code [::1]:8080} → {@code [::1]}, {@code a:80} → {@code a}. */
    static String hostName(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    private static String stripSlash(String value) {
        return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }
}
