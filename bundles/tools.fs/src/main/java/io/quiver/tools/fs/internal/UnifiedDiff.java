package io.quiver.tools.fs.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A unified diff of two texts by lines (Myers' algorithm on what lies between their common start and end),
 * in the form the reference server's {@code edit_file} prints (jsdiff's {@code createTwoFilesPatch}): a header,
 * then hunks with four lines of context.
 */
final class UnifiedDiff {

    /** Beyond this many differences the middle is shown as removed and added whole. */
    private static final int MAX_EDIT_DISTANCE = 1500;
    /** Lines of context around a change, as the reference server's diff (jsdiff) shows them. */
    private static final int CONTEXT = 4;

    private enum Kind { EQUAL, DELETE, INSERT }

    private record Op(Kind kind, String line) {
    }

    private UnifiedDiff() {
    }

    /** The diff of two texts, with a header naming {@code path}. */
    static String of(String before, String after, String path) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        List<Op> ops = ops(a, b);
        StringBuilder out = new StringBuilder();
        out.append("Index: ").append(path).append('\n');
        out.append("===================================================================\n");
        out.append("--- ").append(path).append("\toriginal\n");
        out.append("+++ ").append(path).append("\tmodified\n");
        hunks(ops, out);
        return out.toString();
    }

    /** The lines of a text, each with its {@code \n} (the last one without, when the text does not end in one). */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    private static List<Op> ops(List<String> a, List<String> b) {
        int prefix = 0;
        while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < a.size() - prefix && suffix < b.size() - prefix
                && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
            suffix++;
        }
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < prefix; i++) {
            ops.add(new Op(Kind.EQUAL, a.get(i)));
        }
        ops.addAll(myers(a.subList(prefix, a.size() - suffix), b.subList(prefix, b.size() - suffix)));
        for (int i = a.size() - suffix; i < a.size(); i++) {
            ops.add(new Op(Kind.EQUAL, a.get(i)));
        }
        return ops;
    }

    private static List<Op> myers(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int max = n + m;
        if (max == 0) {
            return List.of();
        }
        int offset = max + 1;
        int[] v = new int[2 * max + 3];
        List<int[]> trace = new ArrayList<>();
        for (int d = 0; d <= max; d++) {
            if (d > MAX_EDIT_DISTANCE) {
                return wholesale(a, b);
            }
            for (int k = -d; k <= d; k += 2) {
                int x = k == -d || k != d && v[offset + k - 1] < v[offset + k + 1] ? v[offset + k + 1]
                        : v[offset + k - 1] + 1;
                int y = x - k;
                while (x < n && y < m && a.get(x).equals(b.get(y))) {
                    x++;
                    y++;
                }
                v[offset + k] = x;
                if (x >= n && y >= m) {
                    trace.add(slice(v, offset, d));
                    return backtrack(a, b, trace);
                }
            }
            trace.add(slice(v, offset, d));
        }
        return wholesale(a, b);
    }

    private static int[] slice(int[] v, int offset, int d) {
        int[] s = new int[2 * d + 1];
        System.arraycopy(v, offset - d, s, 0, 2 * d + 1);
        return s;
    }

    private static int at(int[] slice, int d, int k) {
        return slice[k + d];
    }

    private static List<Op> backtrack(List<String> a, List<String> b, List<int[]> trace) {
        List<Op> ops = new ArrayList<>();
        int x = a.size();
        int y = b.size();
        for (int d = trace.size() - 1; d > 0; d--) {
            int[] previous = trace.get(d - 1);
            int k = x - y;
            int previousK = k == -d || k != d && at(previous, d - 1, k - 1) < at(previous, d - 1, k + 1) ? k + 1 : k - 1;
            int previousX = at(previous, d - 1, previousK);
            int previousY = previousX - previousK;
            while (x > previousX && y > previousY) {
                ops.add(new Op(Kind.EQUAL, a.get(x - 1)));
                x--;
                y--;
            }
            if (x == previousX) {
                ops.add(new Op(Kind.INSERT, b.get(y - 1)));
                y--;
            } else {
                ops.add(new Op(Kind.DELETE, a.get(x - 1)));
                x--;
            }
        }
        while (x > 0 && y > 0) {
            ops.add(new Op(Kind.EQUAL, a.get(x - 1)));
            x--;
            y--;
        }
        Collections.reverse(ops);
        return ops;
    }

    private static List<Op> wholesale(List<String> a, List<String> b) {
        List<Op> ops = new ArrayList<>();
        a.forEach(line -> ops.add(new Op(Kind.DELETE, line)));
        b.forEach(line -> ops.add(new Op(Kind.INSERT, line)));
        return ops;
    }

    private static void hunks(List<Op> ops, StringBuilder out) {
        int n = ops.size();
        int from = 0;
        while (true) {
            int change = nextChange(ops, from);
            if (change < 0) {
                return;
            }
            int start = Math.max(from, change - CONTEXT);
            int end = change;
            while (true) {
                while (end + 1 < n && ops.get(end + 1).kind() != Kind.EQUAL) {
                    end++;
                }
                int next = nextChange(ops, end + 1);
                if (next >= 0 && next - end - 1 <= 2 * CONTEXT) {
                    end = next;
                } else {
                    break;
                }
            }
            int stop = Math.min(n, end + 1 + CONTEXT);
            int oldStart = 1;
            int newStart = 1;
            for (int i = 0; i < start; i++) {
                if (ops.get(i).kind() != Kind.INSERT) {
                    oldStart++;
                }
                if (ops.get(i).kind() != Kind.DELETE) {
                    newStart++;
                }
            }
            int oldLines = 0;
            int newLines = 0;
            for (int i = start; i < stop; i++) {
                if (ops.get(i).kind() != Kind.INSERT) {
                    oldLines++;
                }
                if (ops.get(i).kind() != Kind.DELETE) {
                    newLines++;
                }
            }
            out.append("@@ -").append(oldLines == 0 ? oldStart - 1 : oldStart).append(',').append(oldLines)
                    .append(" +").append(newLines == 0 ? newStart - 1 : newStart).append(',').append(newLines)
                    .append(" @@\n");
            for (int i = start; i < stop; i++) {
                Op op = ops.get(i);
                out.append(op.kind() == Kind.EQUAL ? ' ' : op.kind() == Kind.DELETE ? '-' : '+');
                String line = op.line();
                if (line.endsWith("\n")) {
                    out.append(line);
                } else {
                    out.append(line).append("\n\\ No newline at end of file\n");
                }
            }
            from = stop;
        }
    }

    private static int nextChange(List<Op> ops, int from) {
        for (int i = from; i < ops.size(); i++) {
            if (ops.get(i).kind() != Kind.EQUAL) {
                return i;
            }
        }
        return -1;
    }
}
