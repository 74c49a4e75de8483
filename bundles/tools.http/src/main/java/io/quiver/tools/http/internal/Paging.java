package io.quiver.tools.http.internal;

/**
 * One piece of a long text, as the reference fetch server ({@code mcp-server-fetch}) cuts it: at most
 * {@code max_length} characters from {@code start_index}, and when more follows, a line telling the model
 * the {@code start_index} to call again with. Characters are Unicode code points (as Python counts them),
 * so a piece never splits one.
 */
final class Paging {

    /**
     * A piece.
     *
     * @param text the piece, with the continuation line when more follows
     * @param total the whole text's length in characters
     * @param next the {@code start_index} of the next piece, or -1 when this is the last
     */
    record Piece(String text, long total, long next) {
    }

    /** The line after a piece when more follows: the reference server's own words. */
    static String continuation(long next) {
        return "\n\n<error>Content truncated. Call the fetch tool with a start_index of " + next
                + " to get more content.</error>";
    }

    private Paging() {
    }

    /**
     * Cuts a piece.
     *
     * @return the piece, or {@code null} when {@code startIndex} is at or past the end
     */
    static Piece piece(String content, long startIndex, int maxLength) {
        long total = content.codePointCount(0, content.length());
        if (startIndex >= total) {
            return null;
        }
        int from = content.offsetByCodePoints(0, (int) startIndex);
        long wanted = Math.min(maxLength, total - startIndex);
        int to = content.offsetByCodePoints(from, (int) wanted);
        String piece = content.substring(from, to);
        long end = startIndex + wanted;
        if (end < total) {
            return new Piece(piece + continuation(end), total, end);
        }
        return new Piece(piece, total, -1);
    }
}
