package io.quiver.tools.http.internal;

import java.net.InetAddress;

/**
 * A range of addresses in CIDR notation ({@code 127.0.0.1/32}, {@code 10.1.0.0/16}, {@code fd00::/8}); a
 * single address without a prefix length is a range of one. An IPv4 range holds IPv4 addresses only (an
 * IPv4-mapped IPv6 address is the IPv4 address: Java gives it as one).
 *
 * @param text the range as written in the configuration
 */
record AddressRange(String text, byte[] network, int prefix) {

    /** The range a setting value stands for; {@code null} when it is none. */
    static AddressRange parse(String value) {
        String t = value.trim();
        int slash = t.indexOf('/');
        String address = slash < 0 ? t : t.substring(0, slash);
        InetAddress parsed = Addresses.literal(address);
        if (parsed == null) {
            return null;
        }
        byte[] bytes = parsed.getAddress();
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String length = t.substring(slash + 1);
            if (!length.matches("\\d{1,3}")) {
                return null;
            }
            prefix = Integer.parseInt(length);
            if (prefix > bits) {
                return null;
            }
        }
        return new AddressRange(t, mask(bytes, prefix), prefix);
    }

    /** Whether an address is in the range. */
    boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        return bytes.length == network.length && java.util.Arrays.equals(mask(bytes, prefix), network);
    }

    private static byte[] mask(byte[] bytes, int prefix) {
        byte[] masked = bytes.clone();
        for (int i = 0; i < masked.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - 8 * i));
            masked[i] = (byte) (masked[i] & (0xff << (8 - keep)));
        }
        return masked;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AddressRange r && r.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}
