package io.quiver.transport.stdio.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LineReaderTest {

    @Test
    void oneMessagePerLineWithoutItsLineEnd() throws IOException {
        assertEquals(List.of("{\"a\":1}", "{\"b\":2}", "{\"c\":3}"),
                texts(read("{\"a\":1}\n{\"b\":2}\r\n{\"c\":3}\n", 1 << 20)));
    }

    @Test
    void blankLinesAreSkipped() throws IOException {
        assertEquals(List.of("{}", "[1]"), texts(read("\n\n  \t\r\n{}\n\r\n\n[1]\n  \n", 1 << 20)));
    }

    @Test
    void aLastLineWithoutItsNewlineStillCounts() throws IOException {
        assertEquals(List.of("{\"a\":1}", "{\"last\":true}"), texts(read("{\"a\":1}\n{\"last\":true}", 1 << 20)));
        assertEquals(List.of(), texts(read("", 1 << 20)));
        assertEquals(List.of(), texts(read("\n \n", 1 << 20)));
    }

    @Test
    void bytesPassUntouched() throws IOException {
        String text = "{\"text\":\"größer – 日本語 😀\"}";
        List<LineReader.Line> lines = read(text + "\n", 1 << 20);
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_8),
                assertInstanceOf(LineReader.Message.class, lines.get(0)).bytes());
    }

    @Test
    void aLineOverTheLimitIsReportedOnceAndTheNextIsRead() throws IOException {
        String big = "x".repeat(5000);
        List<LineReader.Line> lines = read("{\"a\":1}\n" + big + "\n{\"b\":2}\n", 1024);
        assertEquals(3, lines.size() - 1, lines::toString);
        assertEquals("{\"a\":1}", text(lines.get(0)));
        assertEquals(5000, assertInstanceOf(LineReader.TooLong.class, lines.get(1)).length());
        assertEquals("{\"b\":2}", text(lines.get(2)));
        assertInstanceOf(LineReader.End.class, lines.get(3));
    }

    @Test
    void theLimitItselfIsTakenAndACarriageReturnDoesNotCount() throws IOException {
        String exact = "y".repeat(1024);
        assertEquals(List.of(exact, exact), texts(read(exact + "\n" + exact + "\r\n", 1024)));
        List<LineReader.Line> over = read(exact + "z\n" + exact + "z\r\n", 1024);
        assertEquals(1025, assertInstanceOf(LineReader.TooLong.class, over.get(0)).length());
        assertInstanceOf(LineReader.TooLong.class, over.get(1));
    }

    @Test
    void anOverlongLastLineWithoutNewlineIsReported() throws IOException {
        List<LineReader.Line> lines = read("{}\n" + "q".repeat(3000), 1024);
        assertEquals("{}", text(lines.get(0)));
        assertEquals(3000, assertInstanceOf(LineReader.TooLong.class, lines.get(1)).length());
        assertInstanceOf(LineReader.End.class, lines.get(2));
    }

    @Test
    void linesArriveInPiecesAsAPipeDeliversThem() throws IOException {
        StringBuilder input = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String message = "{\"id\":" + i + ",\"pad\":\"" + "p".repeat(i * 37 % 700) + "\"}";
            expected.add(message);
            input.append(message).append(i % 3 == 0 ? "\r\n" : "\n");
        }
        InputStream trickle = new FilterInputStream(new ByteArrayInputStream(input.toString().getBytes(StandardCharsets.UTF_8))) {
            private int turn;

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1 + turn++ % 7));
            }
        };
        assertEquals(expected, texts(readAll(new LineReader(trickle, () -> 1 << 20))));
    }

    @Test
    void aNewLimitAppliesToTheNextLine() throws IOException {
        AtomicLong limit = new AtomicLong(1 << 20);
        LineReader reader = new LineReader(new ByteArrayInputStream(("a".repeat(2000) + "\n" + "b".repeat(2000) + "\n")
                .getBytes(StandardCharsets.UTF_8)), limit::get);
        assertInstanceOf(LineReader.Message.class, reader.next());
        limit.set(1024);
        assertInstanceOf(LineReader.TooLong.class, reader.next());
        assertInstanceOf(LineReader.End.class, reader.next());
        assertInstanceOf(LineReader.End.class, reader.next(), "the end stays the end");
    }

    @Test
    void aMessageFarLongerThanTheFirstBufferIsReadWhole() throws IOException {
        // 200 KB: more than the reader's first line buffer and more than one read of stdin
        String big = "{\"pad\":\"" + "m".repeat(200_000) + "\"}";
        assertEquals(List.of("{}", big, "{}"), texts(read("{}\n" + big + "\r\n{}\n", 1 << 20)));
    }

    @Test
    void aLineFarOverTheLimitIsSkippedWithoutBeingKeptAndCountedToItsEnd() throws IOException {
        String huge = "h".repeat(300_000);
        List<LineReader.Line> lines = read("{\"a\":1}\n" + huge + "\n{\"b\":2}\n", 1024);
        assertEquals("{\"a\":1}", text(lines.get(0)));
        assertEquals(300_000, assertInstanceOf(LineReader.TooLong.class, lines.get(1)).length());
        assertEquals("{\"b\":2}", text(lines.get(2)));
        assertInstanceOf(LineReader.End.class, lines.get(3));
    }

    private static List<LineReader.Line> read(String input, long limit) throws IOException {
        return readAll(new LineReader(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), () -> limit));
    }

    private static List<LineReader.Line> readAll(LineReader reader) throws IOException {
        List<LineReader.Line> lines = new ArrayList<>();
        LineReader.Line line;
        do {
            line = reader.next();
            lines.add(line);
        } while (!(line instanceof LineReader.End));
        return lines;
    }

    private static List<String> texts(List<LineReader.Line> lines) {
        return lines.stream().filter(l -> !(l instanceof LineReader.End)).map(LineReaderTest::text).toList();
    }

    private static String text(LineReader.Line line) {
        return new String(assertInstanceOf(LineReader.Message.class, line).bytes(), StandardCharsets.UTF_8);
    }
}
