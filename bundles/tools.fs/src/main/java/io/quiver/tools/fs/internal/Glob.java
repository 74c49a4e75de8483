package io.quiver.tools.fs.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Glob patterns as the reference server's {@code minimatch} (with {@code dot: true}) reads them, matched
 * against '/'-separated paths relative to the searched directory: {@code *} any run of characters within a
 * name, {@code **} as a whole name any number of names (none too), {@code ?} one character,
 * {@code [abc]}, {@code [a-z]}, {@code [!a]} one of a set, {@code {a,b}} alternatives; names starting with a
 * dot are matched like others. A final {@code /**} stands for one name or more: {@code docs/**} is what is under
 * {@code docs}, not {@code docs} itself.
 *
 * <p>Patterns come from the model, so matching must never take long whatever they say: no regular expression
 * (whose backtracking is exponential in the stars of a name). A path is matched name by name against the
 * pattern's names, {@code **} by a table over (pattern name, path name) pairs, each name by two pointers that
 * go back to the last {@code *} only: time is at most the pattern's length times the path's, for each
 * alternative.
 */
final class Glob {

    /** Most alternatives one pattern may expand into (braces). */
    private static final int MAX_ALTERNATIVES = 256;

    private final List<Alternative> alternatives;

    private Glob(List<Alternative> alternatives) {
        this.alternatives = alternatives;
    }

    /**
     * A compiled glob.
     *
     * @throws FsException when it expands into too many alternatives, or has a range that runs backwards
     */
    static Glob of(String glob) throws FsException {
        List<String> expanded = new ArrayList<>();
        expand(glob, expanded);
        List<Alternative> alternatives = new ArrayList<>();
        for (String alternative : expanded) {
            alternatives.add(Alternative.of(alternative, glob));
        }
        return new Glob(List.copyOf(alternatives));
    }

    /** Whether a relative path matches. */
    boolean matches(String relative) {
        String[] split = relative.split("/", -1);
        int[][] names = new int[split.length][];
        for (int i = 0; i < split.length; i++) {
            names[i] = split[i].codePoints().toArray();
        }
        for (Alternative alternative : alternatives) {
            if (alternative.matches(names)) {
                return true;
            }
        }
        return false;
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

    /**
     * One pattern without braces, as its names: each {@code **} (null here; several in a row are one) or a
     * {@link Name}. {@code **} alone matches every path.
     */
    private record Alternative(Name[] names, boolean everything) {

        static Alternative of(String glob, String whole) throws FsException {
            List<Name> names = new ArrayList<>();
            for (String segment : glob.split("/", -1)) {
                if (segment.equals("**")) {
                    if (names.isEmpty() || names.get(names.size() - 1) != null) {
                        names.add(null);
                    }
                } else {
                    names.add(Name.of(segment, whole));
                }
            }
            return new Alternative(names.toArray(new Name[0]), names.size() == 1 && names.get(0) == null);
        }

        /**
         * Whether the path's names match: {@code reached[j]} says whether the pattern's names so far match the
         * path's first j names. {@code **} matches names that are not empty: none or more, but one or more when it
         * is the pattern's last name (and not its first).
         */
        boolean matches(int[][] path) {
            if (everything) {
                return true;
            }
            int n = path.length;
            boolean[] reached = new boolean[n + 1];
            reached[0] = true;
            for (int i = 0; i < names.length; i++) {
                boolean[] next = new boolean[n + 1];
                boolean any = false;
                if (names[i] == null) {
                    // next[j]: reached at some k <= j, and names k..j-1 are not empty
                    boolean run = false;
                    for (int j = 0; j <= n; j++) {
                        run = reached[j] || run && path[j - 1].length > 0;
                        next[j] = run;
                    }
                    if (i == names.length - 1 && i > 0) {
                        // at least one name: reached at some k < j
                        for (int j = n; j >= 0; j--) {
                            next[j] = j > 0 && path[j - 1].length > 0 && next[j - 1];
                        }
                    }
                    for (boolean b : next) {
                        any |= b;
                    }
                } else {
                    for (int j = 0; j < n; j++) {
                        if (reached[j] && names[i].matches(path[j])) {
                            next[j + 1] = true;
                            any = true;
                        }
                    }
                }
                if (!any) {
                    return false;
                }
                reached = next;
            }
            return reached[n];
        }
    }

    /**
     * One name of a pattern: code points to match as they are, {@link #STAR} (any run), {@link #ONE} (any one), or
     * {@code CLASS - k} for the k-th character class.
     */
    private record Name(int[] tokens, CharClass[] classes) {

        static final int STAR = -1;
        static final int ONE = -2;
        static final int CLASS = -3;

        static Name of(String segment, String whole) throws FsException {
            List<Integer> tokens = new ArrayList<>();
            List<CharClass> classes = new ArrayList<>();
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                switch (c) {
                    case '*' -> {
                        while (i + 1 < segment.length() && segment.charAt(i + 1) == '*') {
                            i++;
                        }
                        tokens.add(STAR);
                    }
                    case '?' -> tokens.add(ONE);
                    case '[' -> {
                        int end = classEnd(segment, i);
                        if (end < 0) {
                            tokens.add((int) '[');
                        } else {
                            classes.add(CharClass.of(segment.substring(i + 1, end), whole));
                            tokens.add(CLASS - (classes.size() - 1));
                            i = end;
                        }
                    }
                    case '\\' -> {
                        if (i + 1 < segment.length()) {
                            int escaped = segment.codePointAt(++i);
                            tokens.add(escaped);
                            i += Character.charCount(escaped) - 1;
                        } else {
                            tokens.add((int) '\\');
                        }
                    }
                    default -> {
                        int literal = segment.codePointAt(i);
                        tokens.add(literal);
                        i += Character.charCount(literal) - 1;
                    }
                }
            }
            return new Name(tokens.stream().mapToInt(Integer::intValue).toArray(), classes.toArray(new CharClass[0]));
        }

        /**
         * Whether a name (as code points) matches: both read left to right; at a star, where it stood and how far
         * the name was are kept, and a mismatch later goes back there with the star taking one more character.
         * Only the last star is ever gone back to (an earlier one could take nothing the later cannot).
         */
        boolean matches(int[] name) {
            int t = 0;
            int i = 0;
            int star = -1;
            int starAt = 0;
            while (i < name.length) {
                if (t < tokens.length && tokens[t] == STAR) {
                    star = t++;
                    starAt = i;
                } else if (t < tokens.length && one(tokens[t], name[i])) {
                    t++;
                    i++;
                } else if (star >= 0) {
                    t = star + 1;
                    i = ++starAt;
                } else {
                    return false;
                }
            }
            while (t < tokens.length && tokens[t] == STAR) {
                t++;
            }
            return t == tokens.length;
        }

        private boolean one(int token, int c) {
            if (token >= 0) {
                return token == c;
            }
            return token == ONE || classes[CLASS - token].contains(c);
        }
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

    /**
     * A set of characters ({@code [...]}): ranges of code points, or all but them when negated ({@code [!...]} or
     * {@code [^...]}). Every character stands for itself but a {@code -} between two of them, which makes a range
     * ({@code -} first, last, or right after a range is itself).
     */
    private record CharClass(int[] from, int[] to, boolean negated) {

        static CharClass of(String content, String whole) throws FsException {
            int[] c = content.codePoints().toArray();
            boolean negated = c.length > 0 && (c[0] == '!' || c[0] == '^');
            List<int[]> ranges = new ArrayList<>();
            boolean single = false; // whether the last element can start a range
            for (int i = negated ? 1 : 0; i < c.length; i++) {
                if (c[i] == '-' && single && i < c.length - 1) {
                    int[] last = ranges.get(ranges.size() - 1);
                    last[1] = c[++i];
                    if (last[1] < last[0]) {
                        throw new FsException("The pattern " + PathRules.show(whole) + " has a range that runs"
                                + " backwards: [" + content + "].");
                    }
                    single = false;
                } else {
                    ranges.add(new int[] {c[i], c[i]});
                    single = true;
                }
            }
            int[] from = new int[ranges.size()];
            int[] to = new int[ranges.size()];
            for (int i = 0; i < from.length; i++) {
                from[i] = ranges.get(i)[0];
                to[i] = ranges.get(i)[1];
            }
            return new CharClass(from, to, negated);
        }

        boolean contains(int c) {
            for (int i = 0; i < from.length; i++) {
                if (from[i] <= c && c <= to[i]) {
                    return !negated;
                }
            }
            return negated;
        }
    }
}
