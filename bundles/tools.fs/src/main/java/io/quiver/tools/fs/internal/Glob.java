package io.quiver.tools.fs.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Glob patterns as the reference server's {@code minimatch} (with {@code dot: true}) reads them, matched
 * against '/'-separated paths relative to the searched directory: {@code *} any run of characters within a
 * name, {@code **} as a whole name any number of names (none too), {@code ?} one character,
 * {@code [abc]}, {@code [a-z]}, {@code [!a]} one of a set, {@code {a,b}} alternatives; names starting with a
 * dot are matched like others. A final {@code /**} stands for one name or more: {@code docs/**} is what is under
 * {@code docs}, not {@code docs} itself.
 */
final class Glob {

    /** Most alternatives one pattern may expand into (braces). */
    private static final int MAX_ALTERNATIVES = 256;

    private final Pattern pattern;

    private Glob(Pattern pattern) {
        this.pattern = pattern;
    }

    /**
     * A compiled glob.
     *
     * @throws FsException when it expands into too many alternatives
     */
    static Glob of(String glob) throws FsException {
        List<String> alternatives = new ArrayList<>();
        expand(glob, alternatives);
        StringBuilder regex = new StringBuilder();
        for (String alternative : alternatives) {
            if (regex.length() > 0) {
                regex.append('|');
            }
            regex.append("(?:").append(regex(alternative)).append(')');
        }
        return new Glob(Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    /** Whether a relative path matches. */
    boolean matches(String relative) {
        return pattern.matcher(relative).matches();
    }

    /** Expands the first {@code {a,b}} group of a pattern, then each result again. */
    private static void expand(String glob, List<String> out) throws FsException {
        int open = -1;
        int depth = 0;
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '{') {
                if (depth++ == 0) {
                    open = i;
                }
            } else if (c == '}' && depth > 0 && --depth == 0) {
                List<String> parts = split(glob.substring(open + 1, i));
                if (parts.size() > 1) {
                    for (String part : parts) {
                        expand(glob.substring(0, open) + part + glob.substring(i + 1), out);
                        if (out.size() > MAX_ALTERNATIVES) {
                            throw new FsException("The pattern " + PathRules.show(glob) + " has too many {a,b}"
                                    + " alternatives (at most " + MAX_ALTERNATIVES + ").");
                        }
                    }
                    return;
                }
                // {x} alone is no alternative: literal braces
            }
        }
        out.add(glob);
    }

    /** The alternatives of a brace group's content, split at its own commas. */
    private static List<String> split(String content) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < content.length(); i++) {
            char c = content.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(content.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(content.substring(start));
        return parts;
    }

    /** The regular expression of a pattern without braces. */
    static String regex(String glob) {
        String[] segments = glob.split("/", -1);
        if (segments.length == 1 && segments[0].equals("**")) {
            return ".*";
        }
        StringBuilder regex = new StringBuilder();
        boolean separator = false;
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.equals("**")) {
                if (i == 0) {
                    regex.append("(?:[^/]+/)*");
                    separator = false;
                } else if (i == segments.length - 1) {
                    regex.append("(?:/[^/]+)+"); // a/** is what is under a, not a itself
                    separator = true;
                } else {
                    regex.append("(?:/[^/]+)*");
                    separator = true;
                }
                continue;
            }
            if (separator) {
                regex.append('/');
            }
            regex.append(segment(segment));
            separator = true;
        }
        return regex.toString();
    }

    private static String segment(String segment) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            switch (c) {
                case '*' -> {
                    while (i + 1 < segment.length() && segment.charAt(i + 1) == '*') {
                        i++;
                    }
                    regex.append("[^/]*");
                }
                case '?' -> regex.append("[^/]");
                case '[' -> {
                    int end = classEnd(segment, i);
                    if (end < 0) {
                        regex.append("\\[");
                    } else {
                        regex.append(characterClass(segment.substring(i + 1, end)));
                        i = end;
                    }
                }
                case '\\' -> {
                    if (i + 1 < segment.length()) {
                        regex.append(Pattern.quote(String.valueOf(segment.charAt(++i))));
                    } else {
                        regex.append("\\\\");
                    }
                }
                default -> regex.append(quote(c));
            }
        }
        return regex.toString();
    }

    /** Where a class that opens at {@code open} closes, or -1. */
    private static int classEnd(String segment, int open) {
        int i = open + 1;
        if (i < segment.length() && (segment.charAt(i) == '!' || segment.charAt(i) == '^')) {
            i++;
        }
        if (i < segment.length() && segment.charAt(i) == ']') {
            i++;
        }
        for (; i < segment.length(); i++) {
            if (segment.charAt(i) == ']') {
                return i;
            }
        }
        return -1;
    }

    private static String characterClass(String content) {
        StringBuilder regex = new StringBuilder("[");
        int i = 0;
        if (!content.isEmpty() && (content.charAt(0) == '!' || content.charAt(0) == '^')) {
            regex.append('^');
            i = 1;
        }
        for (; i < content.length(); i++) {
            char c = content.charAt(i);
            if (c == '-' && i > 0 && i < content.length() - 1) {
                regex.append('-');
            } else if (Character.isLetterOrDigit(c)) {
                regex.append(c);
            } else {
                regex.append('\\').append(c);
            }
        }
        if (content.startsWith("!") || content.startsWith("^")) {
            regex.append('/'); // a negated class never matches the separator
        }
        return regex.append(']').toString();
    }

    private static String quote(char c) {
        return Character.isLetterOrDigit(c) || c >= 0x80 ? String.valueOf(c) : "\\" + c;
    }
}
