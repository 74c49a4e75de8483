package io.quiver.auth.jwt.internal;

/** Values taken from a token, made safe for a reason in the log. */
final class Text {

    private static final int MAX = 80;

    private Text() {
    }

    /**
     * A value a token chose (a kid, an issuer), quoted: at most 80 characters, and nothing but printable
     * ASCII, so a crafted value cannot forge or break log lines.
     */
    static String quote(Object value) {
        if (value == null) {
            return "(none)";
        }
        String s = String.valueOf(value);
        StringBuilder b = new StringBuilder("'");
        for (int i = 0; i < s.length() && i < MAX; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return b.append(s.length() > MAX ? "...'" : "'").toString();
    }
}
