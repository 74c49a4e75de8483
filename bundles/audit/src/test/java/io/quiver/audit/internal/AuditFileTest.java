package io.quiver.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditFileTest {

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock("2026-07-28T10:00:00Z");
    private AuditFile file;

    @AfterEach
    void close() {
        if (file != null) {
            file.close();
        }
    }

    @Test
    void aLineThatWouldPassTheSizeRotatesFirst() throws IOException {
        file = new AuditFile(new AuditFile.Settings(dir.resolve("calls.jsonl"), 100, false, 14), clock);
        file.append(line("one", 40));
        file.append(line("two", 40));
        assertEquals(List.of("calls.jsonl"), names(), "80 bytes: no rotation yet");
        file.append(line("three", 40));
        assertEquals(List.of("calls-20260728T100000Z.jsonl", "calls.jsonl"), names());
        assertEquals(2, lines(dir.resolve("calls-20260728T100000Z.jsonl")).size());
        assertTrue(lines(dir.resolve("calls.jsonl")).get(0).startsWith("three"));
    }

    @Test
    void aLineLargerThanTheLimitStillGoesIntoAFileOfItsOwn() throws IOException {
        file = new AuditFile(new AuditFile.Settings(dir.resolve("calls.jsonl"), 100, false, 14), clock);
        file.append(line("big", 300));
        file.append(line("small", 10));
        assertEquals(List.of("calls-20260728T100000Z.jsonl", "calls.jsonl"), names());
        assertEquals(300, Files.size(dir.resolve("calls-20260728T100000Z.jsonl")));
    }

    @Test
    void theFirstLineOfANewUtcDayRotatesTheFileNamedAfterItsLastLine() throws IOException {
        clock.set("2026-07-28T23:59:30Z");
        file = new AuditFile(new AuditFile.Settings(dir.resolve("calls.jsonl"), 1 << 20, true, 14), clock);
        file.append(line("late", 10));
        clock.set("2026-07-28T23:59:59Z");
        file.append(line("later", 10));
        assertEquals(List.of("calls.jsonl"), names());
        clock.set("2026-07-29T00:00:01Z");
        file.append(line("next day", 10));
        assertEquals(List.of("calls-20260728T235959Z.jsonl", "calls.jsonl"), names());
        assertEquals(2, lines(dir.resolve("calls-20260728T235959Z.jsonl")).size());
        assertEquals(1, lines(dir.resolve("calls.jsonl")).size());
    }

    @Test
    void withoutDailyRotationTheDayDoesNotCount() throws IOException {
        file = new AuditFile(new AuditFile.Settings(dir.resolve("calls.jsonl"), 1 << 20, false, 14), clock);
        file.append(line("a", 10));
        clock.set("2026-07-30T10:00:00Z");
        file.append(line("b", 10));
        assertEquals(List.of("calls.jsonl"), names());
    }

    @Test
    void aFileLeftFromAnotherDayIsRotatedAtTheFirstLine() throws IOException {
        Path existing = Files.writeString(dir.resolve("calls.jsonl"), "{\"old\":true}\n");
        Files.setLastModifiedTime(existing, FileTime.from(Instant.parse("2026-07-27T18:30:00Z")));
        file = new AuditFile(new AuditFile.Settings(existing, 1 << 20, true, 14), clock);
        file.append(line("today", 10));
        assertEquals(List.of("calls-20260727T183000Z.jsonl", "calls.jsonl"), names());
        assertEquals(List.of("{\"old\":true}"), lines(dir.resolve("calls-20260727T183000Z.jsonl")));
    }

    @Test
    void onlyTheNewestMaxFilesRotatedFilesAreKeptAndOtherFilesAreNotTouched() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "mine");
        Files.writeString(dir.resolve("calls-backup.jsonl"), "mine too");
        file = new AuditFile(new AuditFile.Settings(dir.resolve("calls.jsonl"), 50, false, 2), clock);
        for (int i = 1; i <= 4; i++) {
            file.append(line("second 0 #" + i, 40)); // the same second: -2, -3 ...
        }
        clock.set("2026-07-28T10:00:01Z");
        file.append(line("second 1", 40));
        clock.set("2026-07-28T10:00:02Z");
        file.append(line("second 2", 40));
        assertEquals(List.of("calls-20260728T100000Z-4.jsonl", "calls-20260728T100001Z.jsonl", "calls-backup.jsonl",
                "calls.jsonl", "notes.txt"), names());
        assertTrue(lines(dir.resolve("calls-20260728T100000Z-4.jsonl")).get(0).startsWith("second 0 #4"));
        assertTrue(lines(dir.resolve("calls-20260728T100001Z.jsonl")).get(0).startsWith("second 1"));
        assertTrue(lines(dir.resolve("calls.jsonl")).get(0).startsWith("second 2"));
    }

    @Test
    void aFileWithoutExtensionRotatesToo() throws IOException {
        file = new AuditFile(new AuditFile.Settings(dir.resolve("audit"), 20, false, 14), clock);
        file.append(line("a", 15));
        file.append(line("b", 15));
        assertEquals(List.of("audit", "audit-20260728T100000Z"), names());
    }

    @Test
    void aFileDeletedWhileOpenIsBegunAnew() throws IOException {
        Path calls = dir.resolve("calls.jsonl");
        file = new AuditFile(new AuditFile.Settings(calls, 1 << 20, false, 14), clock);
        file.append(line("before", 10));
        Files.delete(calls);
        file.append(line("after", 10));
        assertEquals(List.of(text("after", 10)), lines(calls), "not into the deleted file");
    }

    @Test
    void aFileMovedAwayWhileOpenIsBegunAnew() throws IOException {
        Path calls = dir.resolve("calls.jsonl");
        file = new AuditFile(new AuditFile.Settings(calls, 1 << 20, false, 14), clock);
        file.append(line("before", 10));
        Path moved = Files.move(calls, dir.resolve("elsewhere.jsonl"));
        Files.writeString(calls, "{\"other\":1}\n"); // and another put in its place
        file.append(line("after", 10));
        assertEquals(List.of(text("before", 10)), lines(moved));
        assertEquals(List.of("{\"other\":1}", text("after", 10)), lines(calls));
    }

    @Test
    void aBatchThatFailsPartWayIsCutOffTheFile() throws IOException {
        Path calls = dir.resolve("calls.jsonl");
        boolean[] full = {false};
        // a full disk: half of what is asked goes on the disk, then the write fails
        file = new AuditFile(new AuditFile.Settings(calls, 1 << 20, false, 14), clock, (channel, bytes) -> {
            if (!full[0]) {
                return channel.write(bytes);
            }
            ByteBuffer half = bytes.duplicate();
            half.limit(bytes.position() + bytes.remaining() / 2);
            channel.write(half);
            throw new IOException("No space left on device");
        });
        file.append(line("first", 10));
        full[0] = true;
        byte[] batch = (new String(line("second", 10), StandardCharsets.UTF_8)
                + new String(line("third", 10), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
        assertThrows(IOException.class, () -> file.append(batch));
        assertEquals(10, Files.size(calls), "none of the failed batch, no half line");
        full[0] = false;
        file.append(line("fourth", 10));
        assertEquals(List.of(text("first", 10), text("fourth", 10)), lines(calls));
    }

    @Test
    void aTornLastLineIsEndedBeforeTheNextLine() throws IOException {
        Path calls = Files.writeString(dir.resolve("calls.jsonl"), "{\"whole\":1}\n{\"torn\":");
        file = new AuditFile(new AuditFile.Settings(calls, 1 << 20, false, 14), clock);
        file.append(line("next", 10));
        assertEquals(List.of("{\"whole\":1}", "{\"torn\":", text("next", 10)), lines(calls));
    }

    @Test
    void aFileMayGrowToExactlyItsLimit() throws IOException {
        file = new AuditFile(new AuditFile.Settings(dir.resolve("calls.jsonl"), 100, false, 14), clock);
        file.append(line("one", 50));
        file.append(line("two", 50));
        assertEquals(List.of("calls.jsonl"), names(), "100 bytes of 100: no rotation yet");
        assertEquals(100, Files.size(dir.resolve("calls.jsonl")));
        file.append(line("three", 1));
        assertEquals(List.of("calls-20260728T100000Z.jsonl", "calls.jsonl"), names(), "101 would pass it");
    }

    @Test
    void pruningDeletesTheOldestRotatedFilesWhateverOrderTheFolderListsThemIn() throws IOException {
        // made in an order that is neither theirs nor its reverse; -10 is after -2 (a number, not a text)
        List<String> made = List.of("calls-20260728T100000Z-2.jsonl", "calls-20260726T090000Z.jsonl",
                "calls-20260728T100000Z-10.jsonl", "calls-20260727T235959Z.jsonl", "calls-20260728T100000Z.jsonl",
                "calls-20260729T000001Z.jsonl", "calls-20260725T120000Z.jsonl", "calls-20260728T100000Z-3.jsonl");
        for (String name : made) {
            Files.writeString(dir.resolve(name), "{}\n");
        }
        file = new AuditFile(new AuditFile.Settings(dir.resolve("calls.jsonl"), 1 << 20, false, 3), clock);
        assertEquals(List.of("calls-20260725T120000Z.jsonl", "calls-20260726T090000Z.jsonl",
                "calls-20260727T235959Z.jsonl", "calls-20260728T100000Z.jsonl", "calls-20260728T100000Z-2.jsonl",
                "calls-20260728T100000Z-3.jsonl", "calls-20260728T100000Z-10.jsonl", "calls-20260729T000001Z.jsonl"),
                file.rotated().stream().map(r -> r.path().getFileName().toString()).toList(), "oldest first");
        file.prune();
        assertEquals(List.of("calls-20260728T100000Z-10.jsonl", "calls-20260728T100000Z-3.jsonl",
                "calls-20260729T000001Z.jsonl"), names(), "the newest three");
    }

    /** A line of exactly {@code bytes} bytes, newline included. */
    private static byte[] line(String text, int bytes) {
        StringBuilder s = new StringBuilder(text);
        while (s.length() < bytes - 1) {
            s.append('.');
        }
        return (s + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** {@link #line}'s text without its newline. */
    private static String text(String text, int bytes) {
        return new String(line(text, bytes), StandardCharsets.UTF_8).strip();
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }
}
