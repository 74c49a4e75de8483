package io.quiver.transport.stdio.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LineWriterTest {

    @Test
    void eachMessageIsOneFlushedLine() {
        AtomicInteger flushes = new AtomicInteger();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream() {
            @Override
            public void flush() {
                flushes.incrementAndGet();
            }
        };
        LineWriter out = new LineWriter(bytes);
        assertTrue(out.write(utf8("{\"a\":1}")));
        assertTrue(out.write(utf8("{\"b\":\"ü\"}")));
        assertEquals("{\"a\":1}\n{\"b\":\"ü\"}\n", bytes.toString(StandardCharsets.UTF_8));
        assertEquals(2, flushes.get());
    }

    @Test
    void aLineBreakInAMessageNeverSplitsIt() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] pretty = utf8("{\r\n  \"a\": 1\n}");
        new LineWriter(bytes).write(pretty);
        assertEquals("{    \"a\": 1 }\n", bytes.toString(StandardCharsets.UTF_8));
        assertEquals("{\r\n  \"a\": 1\n}", new String(pretty, StandardCharsets.UTF_8), "the caller's bytes stay as they were");
    }

    @Test
    void concurrentWritersNeverInterleave() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream() {
            @Override
            public synchronized void write(byte[] b, int off, int len) {
                // one byte at a time: a missing lock would show as mixed lines
                for (int i = off; i < off + len; i++) {
                    super.write(b[i]);
                    Thread.yield();
                }
            }
        };
        LineWriter out = new LineWriter(bytes);
        int threads = 8;
        int each = 200;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread writer = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    out.write(utf8("{\"writer\":" + id + ",\"n\":" + i + ",\"pad\":\"" + "x".repeat(i % 50) + "\"}"));
                }
            });
            writer.start();
            writers.add(writer);
        }
        go.countDown();
        for (Thread writer : writers) {
            writer.join(30_000);
        }
        Set<String> lines = new HashSet<>(List.of(bytes.toString(StandardCharsets.UTF_8).split("\n", -1)));
        assertTrue(lines.remove(""), "the output ends with a line end");
        assertEquals(threads * each, lines.size());
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < each; i++) {
                String expected = "{\"writer\":" + t + ",\"n\":" + i + ",\"pad\":\"" + "x".repeat(i % 50) + "\"}";
                assertTrue(lines.contains(expected), expected);
            }
        }
    }

    @Test
    void aClosedOutputDropsMessagesWithoutThrowing() {
        AtomicInteger writes = new AtomicInteger();
        OutputStream closed = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                writes.incrementAndGet();
                throw new IOException("Broken pipe");
            }
        };
        LineWriter out = new LineWriter(closed);
        assertFalse(out.write(utf8("{}")));
        assertFalse(out.write(utf8("{}")));
        assertEquals(1, writes.get(), "no write is tried once the output failed");
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
