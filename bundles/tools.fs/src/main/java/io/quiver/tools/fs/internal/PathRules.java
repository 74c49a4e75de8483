package io.quiver.tools.fs.internal;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a requested path may look like, checked on the text before anything touches the file system. Paths
 * are taken literally: nothing is URL-decoded or Unicode-normalized, so a lookalike can never turn into a
 * separator or a dot later; such paths are refused outright, with a reason, rather than looked up as odd
 * names.
 */
final class PathRules {

    /** Longest path the kernel takes (PATH_MAX, with its NUL), in bytes. */
    static final int MAX_PATH_BYTES = 4095;
    /** Longest name of one entry (NAME_MAX), in bytes. */
    static final int MAX_NAME_BYTES = 255;

    private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:([\\\\/].*)?$");
    private static final Pattern ENCODED = Pattern.compile("%(2[eEfF]|5[cC]|00|25|[cC][01])");

    /**
     * Characters that look like '/', '\\' or '.' without NFKC saying so, and invisible ones that make a name
     * show as another (zero-width space, word joiner, byte order mark, bidirectional controls).
     */
    private static final String LOOKALIKES = "\u2215\u2044\u29F8\u2571\u1735\uFF0F\u2024\u2025\u2026\uFE52\uFF0E"
            + "\u2027\u0338\u2216\u29F5\u29F9\uFE68\uFF3C\u2E31\u2E33\u0701\u0702\uA4F8\uA60E"
            + "\u200B\u2060\uFEFF\u200E\u200F\u061C\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069";

    private PathRules() {
    }

    /**
     * Checks a requested path's text.
     *
     * @throws FsException saying what is wrong with it
     */
    static void check(String requested) throws FsException {
        if (requested == null) {
            throw new FsException("No path was given.");
        }
        String shown = show(requested);
        if (requested.indexOf('\0') >= 0) {
            throw new FsException("Access denied: the path " + shown + " contains a NUL byte.");
        }
        for (int i = 0; i < requested.length(); i++) {
            char c = requested.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                throw new FsException("Access denied: the path " + shown + " contains the control character U+"
                        + String.format(Locale.ROOT, "%04X", (int) c) + ".");
            }
        }
        if (requested.indexOf('\\') >= 0 || DRIVE.matcher(requested).matches()) {
            throw new FsException("Access denied: " + shown + " is a Windows-style path (a drive letter or a"
                    + " backslash). Paths here use '/' as the separator, e.g. src/main/App.java.");
        }
        if (ENCODED.matcher(requested).find()) {
            throw new FsException("Access denied: " + shown + " contains URL-encoded characters (such as %2e or %2f)."
                    + " Paths are taken literally, never URL-decoded: give the plain path.");
        }
        if (requested.regionMatches(true, 0, "file:", 0, 5)) {
            throw new FsException("Give a file path, not a URI: " + shown + ".");
        }
        for (int i = 0; i < requested.length(); ) {
            int cp = requested.codePointAt(i);
            i += Character.charCount(cp);
            if (cp < 0x80) {
                continue;
            }
            if (lookalike(cp)) {
                throw new FsException("Access denied: the path " + shown + " contains U+"
                        + String.format(Locale.ROOT, "%04X", cp) + " (" + Character.getName(cp)
                        + "), which looks like '/', '\\' or '.' or is invisible. Paths are taken literally: use the"
                        + " plain characters.");
            }
        }
        if (requested.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            throw new FsException("The path is too long (" + requested.getBytes(StandardCharsets.UTF_8).length
                    + " bytes; at most " + MAX_PATH_BYTES + ").");
        }
        for (String name : requested.split("/")) {
            if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
                throw new FsException("A name in the path " + shown + " is too long (at most " + MAX_NAME_BYTES
                        + " bytes per name).");
            }
        }
    }

    /** Whether a non-ASCII code point looks like a separator or a dot, or hides what a name shows. */
    static boolean lookalike(int cp) {
        if (cp <= 0xFFFF && LOOKALIKES.indexOf(cp) >= 0) {
            return true;
        }
        String folded = Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFKC);
        return folded.indexOf('/') >= 0 || folded.indexOf('.') >= 0 || folded.indexOf('\\') >= 0;
    }

    /**
     * The path {@code ~} or {@code ~/rest} stands for: the user's home, or {@code rest} under it; null for any
     * other text (which the caller resolves its own way).
     *
     * @throws java.nio.file.InvalidPathException when {@code rest} is not a path
     */
    static Path underHome(String text, Path home) {
        if (text.equals("~")) {
            return home;
        }
        if (text.startsWith("~/")) {
            return home.resolve(text.substring(2));
        }
        return null;
    }

    /**
     * A name or path as a line of text output shows it: control characters (a line break in a file name, say,
     * which would forge entries in a listing the model reads) as {@code \\uXXXX}. Structured output keeps the
     * real name.
     */
    static String plain(String name) {
        if (name.chars().noneMatch(PathRules::control)) {
            return name;
        }
        StringBuilder b = new StringBuilder(name.length() + 8);
        name.chars().forEach(c -> {
            if (control(c)) {
                b.append(String.format(Locale.ROOT, "\\u%04X", c));
            } else {
                b.append((char) c);
            }
        });
        return b.toString();
    }

    private static boolean control(int c) {
        return c < 0x20 || c == 0x7F;
    }

    /** A requested path for a message: quoted, cut when long, control characters escaped. */
    static String show(String requested) {
        boolean cut = requested.length() > 200;
        return "'" + plain(cut ? requested.substring(0, 200) : requested) + (cut ? "..." : "") + "'";
    }
}
