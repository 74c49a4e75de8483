package io.quiver.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditTailTest {

    @TempDir
    Path dir;

    @Test
    void theLastLinesInTheirOrder() throws IOException {
        Path file = write(IntStream.rangeClosed(1, 30).mapToObj(i -> "{\"n\":" + i + "}").toList(), true);
        assertEquals(IntStream.rangeClosed(11, 30).mapToObj(i -> "{\"n\":" + i + "}").toList(),
                AuditTail.last(file, 20));
        assertEquals(List.of("{\"n\":30}"), AuditTail.last(file, 1));
        assertEquals(30, AuditTail.last(file, 100).size());
    }

    @Test
    void linesLongerThanTheChunkAndALastLineWithoutNewline() throws IOException {
        String longLine = "x".repeat(20_000);
        Path file = write(List.of("a", longLine, "b", longLine + "y"), false);
        assertEquals(List.of(longLine, "b", longLine + "y"), AuditTail.last(file, 3));
        assertEquals(List.of("a", longLine, "b", longLine + "y"), AuditTail.last(file, 10));
    }

    @Test
    void anEmptyFileHasNoLines() throws IOException {
        assertEquals(List.of(), AuditTail.last(Files.createFile(dir.resolve("empty.jsonl")), 5));
    }

    @Test
    void theFileIsTheConfiguredOneElseTheDefaultUnderTheWorkingDirectory() {
        Path cwd = Path.of("").toAbsolutePath();
        assertEquals(cwd.resolve("audit/calls.jsonl"), AuditTail.file(null));
        Dictionary<String, Object> config = new Hashtable<>();
        config.put("file", "logs/a.jsonl");
        assertEquals(cwd.resolve("logs/a.jsonl"), AuditTail.file(config));
        config.put("file", new String[] {dir.resolve("b.jsonl").toString()});
        assertEquals(dir.resolve("b.jsonl"), AuditTail.file(config));
    }

    @Test
    void theReportSaysWhatItShowsAndWhyThereIsNothing() throws IOException {
        Path file = write(List.of("{\"n\":1}", "{\"n\":2}"), true);
        Dictionary<String, Object> config = new Hashtable<>();
        config.put("file", file.toString());
        assertEquals("Last 2 lines of " + file + ":\n{\"n\":1}\n{\"n\":2}\n", AuditTail.report(config, 20));
        assertEquals("Last 1 line of " + file + ":\n{\"n\":2}\n", AuditTail.report(config, 1));
        assertTrue(AuditTail.report(config, 0).startsWith("Give a number of lines from 1 to 10000"));

        config.put("file", dir.resolve("none.jsonl").toString());
        assertTrue(AuditTail.report(config, 20).startsWith("No audit file at " + dir.resolve("none.jsonl")));
        config.put("enabled", "false");
        assertEquals("The audit file is off (io.quiver.audit enabled = false).\n", AuditTail.report(config, 20));
    }

    private Path write(List<String> lines, boolean finalNewline) throws IOException {
        String text = String.join("\n", lines) + (finalNewline ? "\n" : "");
        return Files.writeString(dir.resolve("calls.jsonl"), text);
    }
}
