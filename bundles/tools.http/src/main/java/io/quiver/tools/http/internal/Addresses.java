package io.quiver.tools.http.internal;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * What kind of address an IP address is, from its bytes alone (no lookup): the public internet, or one of
 * the ranges a server-side fetch must not reach unless the operator says so (RFC 6890 and its IANA
 * special-purpose registries, RFC 4193, RFC 6052, RFC 3056).
 */
final class Addresses {

    /** The kinds of address, each with the words the refusals use. */
    enum Kind {
        PUBLIC("a public address"),
        LOOPBACK("a loopback address"),
        PRIVATE("a private address"),
        LINK_LOCAL("a link-local address"),
        UNIQUE_LOCAL("a unique-local address"),
        RESERVED("a reserved (special-purpose) address"),
        MULTICAST("a multicast or broadcast address"),
        UNSPECIFIED("the unspecified address");

        final String words;

        Kind(String words) {
            this.words = words;
        }

        /** Whether no setting can allow it: nothing listens there (multicast) or it means this very host (0.0.0.0). */
        boolean never() {
            return this == MULTICAST || this == UNSPECIFIED;
        }
    }

    private Addresses() {
    }

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    /** The kind of an address. */
    static Kind classify(InetAddress address) {
        byte[] b = address.getAddress();
        return b.length == 4 ? classify4(b) : classify6(b);
    }

    private static Kind classify4(byte[] b) {
        int a0 = b[0] & 0xff;
        int a1 = b[1] & 0xff;
        int a2 = b[2] & 0xff;
        if (a0 == 0) {
            return Kind.UNSPECIFIED;                               // 0.0.0.0/8 "this network": 0.0.0.0 is this host
        }
        if (a0 == 127) {
            return Kind.LOOPBACK;                                  // 127.0.0.0/8
        }
        if (a0 == 10 || a0 == 172 && (a1 & 0xf0) == 16 || a0 == 192 && a1 == 168) {
            return Kind.PRIVATE;                                   // RFC 1918
        }
        if (a0 == 100 && (a1 & 0xc0) == 64) {
            return Kind.PRIVATE;                                   // 100.64.0.0/10 shared address space (CGN)
        }
        if (a0 == 169 && a1 == 254) {
            return Kind.LINK_LOCAL;                                // 169.254.0.0/16, cloud metadata services among them
        }
        if (a0 >= 224 && a0 <= 239 || a0 == 255 && a1 == 255 && a2 == 255 && (b[3] & 0xff) == 255) {
            return Kind.MULTICAST;                                 // 224.0.0.0/4, 255.255.255.255
        }
        if (a0 >= 240                                              // 240.0.0.0/4 reserved
                || a0 == 192 && a1 == 0 && (a2 == 0 || a2 == 2)    // 192.0.0.0/24 IETF, 192.0.2.0/24 documentation
                || a0 == 192 && a1 == 88 && a2 == 99               // 192.88.99.0/24 6to4 relay anycast
                || a0 == 198 && (a1 & 0xfe) == 18                  // 198.18.0.0/15 benchmarking
                || a0 == 198 && a1 == 51 && a2 == 100              // 198.51.100.0/24 documentation
                || a0 == 203 && a1 == 0 && a2 == 113) {            // 203.0.113.0/24 documentation
            return Kind.RESERVED;
        }
        return Kind.PUBLIC;
    }

    private static Kind classify6(byte[] b) {
        int w0 = word(b, 0);
        int w1 = word(b, 1);
        if (zero(b, 0, 15)) {
            return b[15] == 0 ? Kind.UNSPECIFIED : b[15] == 1 ? Kind.LOOPBACK : Kind.RESERVED; // ::, ::1, ::/96 compatible
        }
        if (zero(b, 0, 10) && word(b, 5) == 0xffff) {
            return classify4(Arrays.copyOfRange(b, 12, 16));       // ::ffff:0:0/96 IPv4-mapped
        }
        if (zero(b, 0, 12)) {
            return Kind.RESERVED;                                  // ::/96 IPv4-compatible (deprecated)
        }
        if (w0 == 0x64 && w1 == 0xff9b && zero(b, 4, 12)) {
            return classify4(Arrays.copyOfRange(b, 12, 16));       // 64:ff9b::/96 NAT64: the IPv4 address it reaches
        }
        if (w0 == 0x64 && w1 == 0xff9b && word(b, 2) == 1) {
            return Kind.PRIVATE;                                   // 64:ff9b:1::/48 local-use NAT64
        }
        if (w0 == 0x2002) {
            return classify4(Arrays.copyOfRange(b, 2, 6));         // 2002::/16 6to4: the IPv4 address it reaches
        }
        int first = b[0] & 0xff;
        if (first == 0xff) {
            return Kind.MULTICAST;                                 // ff00::/8
        }
        if ((first & 0xfe) == 0xfc) {
            return Kind.UNIQUE_LOCAL;                              // fc00::/7
        }
        if (first == 0xfe && (b[1] & 0xc0) == 0x80) {
            return Kind.LINK_LOCAL;                                // fe80::/10
        }
        if (first == 0xfe && (b[1] & 0xc0) == 0xc0) {
            return Kind.PRIVATE;                                   // fec0::/10 site-local (deprecated)
        }
        if ((first & 0xe0) != 0x20                                 // outside 2000::/3, the global unicast space
                || w0 == 0x2001 && (w1 & 0xfe00) == 0              // 2001::/23 IETF protocol assignments, Teredo
                || w0 == 0x2001 && w1 == 0x0db8                    // 2001:db8::/32 documentation
                || w0 == 0x3fff && (w1 & 0xf000) == 0) {           // 3fff::/20 documentation
            return Kind.RESERVED;
        }
        return Kind.PUBLIC;
    }

    private static int word(byte[] b, int index) {
        return (b[2 * index] & 0xff) << 8 | b[2 * index + 1] & 0xff;
    }

    private static boolean zero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * An IP address written as a literal ({@code 192.0.2.1}, {@code ::1}, {@code [::1]}), without any name
     * lookup; {@code null} when the text is no address literal.
     */
    static InetAddress literal(String text) {
        String t = text.trim();
        if (t.startsWith("[") && t.endsWith("]")) {
            t = t.substring(1, t.length() - 1);
        }
        if (!IPV4.matcher(t).matches() && !IPV6.matcher(t).matches()) {
            return null;
        }
        if (IPV4.matcher(t).matches()) {
            for (String part : t.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        }
        try {
            return InetAddress.getByName(t); // a literal: parsed, never looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** An address as text: {@code 192.0.2.1}, or {@code 2001:db8::1} without a scope. */
    static String text(InetAddress address) {
        if (address instanceof Inet6Address) {
            try {
                return compress(InetAddress.getByAddress(address.getAddress()).getHostAddress());
            } catch (UnknownHostException e) {
                return address.getHostAddress();
            }
        }
        return address.getHostAddress();
    }

    /** {@code 0:0:0:0:0:0:0:1} as {@code ::1}: the longest run of zero groups shortened (RFC 5952). */
    private static String compress(String full) {
        String[] groups = full.split(":");
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < groups.length; i++) {
            int j = i;
            while (j < groups.length && groups[j].equals("0")) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
        }
        if (bestStart < 0) {
            return full;
        }
        String head = String.join(":", Arrays.copyOfRange(groups, 0, bestStart));
        String tail = String.join(":", Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
        return head + "::" + tail;
    }

    /** Whether an address is IPv4 (for CIDR matching: an IPv4 range holds only IPv4 addresses). */
    static boolean isV4(InetAddress address) {
        return address instanceof Inet4Address;
    }
}
