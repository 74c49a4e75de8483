package io.quiver.lib.external;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinesTest {

    @Test
    void linesEndWithNewlineOrReturnNewlineAndTheUnfinishedTailIsNotHandedOn() throws IOException {
        List<String> lines = new ArrayList<>();
        assertTrue(Lines.read(new ByteArrayInputStream("one\ntwo\r\n\r\nthree".getBytes(StandardCharsets.UTF_8)), 100,
                line -> lines.add(new String(line, StandardCharsets.UTF_8))));
        assertEquals(List.of("one", "two", ""), lines);
    }

    @Test
    void aReturnNewlineSplitAcrossReadsStillEndsTheLine() throws IOException {
        byte[] bytes = "{\"a\":1}\r\n{\"b\":2}\n".getBytes(StandardCharsets.UTF_8);
        // one byte per read: the \r arrives in one read, the \n in the next
        InputStream trickle = new InputStream() {
            private int at;

            @Override
            public int read() {
                return at < bytes.length ? bytes[at++] : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                int c = read();
                if (c < 0) {
                    return -1;
                }
                b[off] = (byte) c;
                return 1;
            }
        };
        List<String> lines = new ArrayList<>();
        assertTrue(Lines.read(trickle, 100, line -> lines.add(new String(line, StandardCharsets.UTF_8))));
        assertEquals(List.of("{\"a\":1}", "{\"b\":2}"), lines);
    }

    @Test
    void aLineLongerThanTheLimitStopsTheReading() throws IOException {
        List<byte[]> lines = new ArrayList<>();
        assertFalse(Lines.read(new ByteArrayInputStream("ok\n0123456789abcdef\nlater\n".getBytes(StandardCharsets.UTF_8)),
                8, lines::add));
        assertEquals(1, lines.size());
    }
}
