package io.quiver.tools.http.internal;

import io.quiver.lib.config.TypedConfig;
import java.net.InetAddress;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One entry of {@code allowedHosts}: a host name ({@code docs.example.com}), a glob ({@code *.example.com}:
 * any name ending in {@code .example.com}, not {@code example.com} itself; {@code *} alone: any host), or
 * an IP address ({@code 192.0.2.7}, {@code [2001:db8::7]}), each optionally with a port
 * ({@code example.com:8443}: that port only). Names are compared without case and without a trailing dot.
 *
 * <p>A host allowed here is fetched only if every address it resolves to is allowed as well (see
 * {@link Policy}): the entry names what may be asked for, the addresses decide what may be reached.
 */
final class HostPattern {

    private static final Pattern NAME = Pattern.compile("[a-z0-9*?_-]+(\\.[a-z0-9*?_-]+)*");

    private final String text;
    private final Pattern glob;
    private final String name;
    private final InetAddress address;
    private final int port;

    private HostPattern(String text, Pattern glob, String name, InetAddress address, int port) {
        this.text = text;
        this.glob = glob;
        this.name = name;
        this.address = address;
        this.port = port;
    }

    /** The pattern an entry stands for; {@code null} when it is none (a URL, a path, an empty entry). */
    static HostPattern parse(String entry) {
        String t = entry.trim().toLowerCase(Locale.ROOT);
        int port = -1;
        String host = t;
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = t.substring(1, close);
            String rest = t.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":") || (port = port(rest.substring(1))) < 0) {
                    return null;
                }
            }
            InetAddress literal = Addresses.literal(host);
            return literal == null ? null : new HostPattern(entry.trim(), null, null, literal, port);
        }
        int colon = t.indexOf(':');
        if (colon >= 0 && colon == t.lastIndexOf(':')) {
            host = t.substring(0, colon);
            if ((port = port(t.substring(colon + 1))) < 0) {
                return null;
            }
        } else if (colon >= 0) {
            InetAddress literal = Addresses.literal(t); // an IPv6 address without brackets
            return literal == null ? null : new HostPattern(entry.trim(), null, null, literal, -1);
        }
        host = stripDot(host);
        if (host.isEmpty() || !NAME.matcher(host).matches()) {
            return null;
        }
        InetAddress literal = Addresses.literal(host);
        if (literal != null) {
            return new HostPattern(entry.trim(), null, null, literal, port);
        }
        boolean wild = host.indexOf('*') >= 0 || host.indexOf('?') >= 0;
        return new HostPattern(entry.trim(), wild ? TypedConfig.glob(host) : null, wild ? null : host, null, port);
    }

    /**
     * Whether the pattern allows a host and port.
     *
     * @param host the URL's host as {@link #normalize} gives it
     * @param literal the host as an address when the URL names one, else {@code null}
     * @param port the port the URL reaches (its default port when it names none)
     */
    boolean allows(String host, InetAddress literal, int port) {
        if (this.port >= 0 && this.port != port) {
            return false;
        }
        if (address != null) {
            return address.equals(literal);
        }
        if (literal != null && literal.getAddress().length == 16) {
            return glob != null && glob.pattern().equals(".*"); // an IPv6 URL host matches a name entry only as *
        }
        return glob != null ? glob.matcher(host).matches() : name.equals(host);
    }

    /** A URL's host for matching: lower case, no brackets, no trailing dot. */
    static String normalize(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return stripDot(h);
    }

    private static String stripDot(String host) {
        return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    }

    private static int port(String text) {
        if (!text.matches("\\d{1,5}")) {
            return -1;
        }
        int port = Integer.parseInt(text);
        return port >= 1 && port <= 65535 ? port : -1;
    }

    @Override
    public String toString() {
        return text;
    }
}
