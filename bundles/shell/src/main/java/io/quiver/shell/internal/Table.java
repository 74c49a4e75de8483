package io.quiver.shell.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table for the console: a header row, left-aligned columns two spaces apart, and
 * cells cut to a width (ending in {@code ...}). The last column is never cut (it holds long free text).
 */
final class Table {

    private final String[] header;
    private final int[] maxWidths;
    private final List<String[]> rows = new ArrayList<>();

    /** A table with these column headers; every column but the last is cut at {@code maxWidth}. */
    Table(int maxWidth, String... header) {
        this.header = header.clone();
        this.maxWidths = new int[header.length];
        Arrays.fill(maxWidths, maxWidth);
        maxWidths[header.length - 1] = Integer.MAX_VALUE;
    }

    /** Adds a row; {@code null} cells print as empty, missing cells too. */
    Table row(Object... cells) {
        String[] row = new String[header.length];
        for (int i = 0; i < row.length; i++) {
            Object cell = i < cells.length ? cells[i] : null;
            row[i] = cut(oneLine(cell == null ? "" : cell.toString()), maxWidths[i]);
        }
        rows.add(row);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    int size() {
        return rows.size();
    }

    @Override
    public String toString() {
        int[] widths = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            widths[i] = header[i].length();
        }
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths);
        for (String[] row : rows) {
            line(out, row, widths);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            line.append(cells[i]);
            if (i < cells.length - 1) {
                line.append(" ".repeat(widths[i] - cells[i].length() + 2));
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    static String oneLine(String text) {
        return text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        return text.substring(0, Math.max(0, max - 3)) + "...";
    }
}
