package io.quiver.tools.fs.internal;

import static io.quiver.tools.fs.internal.Fixture.call;
import static io.quiver.tools.fs.internal.Fixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.ToolResult;
import io.quiver.api.content.AudioContent;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ImageContent;
import io.quiver.api.schema.RecordSchemas;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each tool does inside its root. */
class ToolsTest {

    @TempDir
    Path temp;
    Fixture f;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixture(temp);
    }

    private ToolResult read(String path, Integer head, Integer tail) throws Exception {
        return call(new ReadTextFileTool(f.workspace), new ReadTextFileTool.Arguments(path, Optional.ofNullable(head),
                Optional.ofNullable(tail)));
    }

    private ToolResult edit(String path, boolean dryRun, EditFileTool.Edit... edits) throws Exception {
        return call(new EditFileTool(f.workspace), new EditFileTool.Arguments(path, List.of(edits),
                Optional.of(dryRun)));
    }

    @Test
    void headAndTailGiveLines() throws Exception {
        Files.writeString(f.root.resolve("n.txt"), "1\n2\n3\n4\n5\n");
        assertEquals("1\n2", text(read("n.txt", 2, null)));
        assertEquals("4\n5", text(read("n.txt", null, 2)));
        assertEquals("1\n2\n3\n4\n5", text(read("n.txt", 10, null)));
        assertEquals("1\n2\n3\n4\n5", text(read("n.txt", null, 10)));
        Files.writeString(f.root.resolve("crlf.txt"), "a\r\nb\r\nc");
        assertEquals("a", text(read("crlf.txt", 1, null)));
        assertEquals("b\nc", text(read("crlf.txt", null, 2)));
        assertTrue(read("n.txt", 1, 1).isError());
        assertTrue(read("n.txt", 0, null).isError());
        Files.writeString(f.root.resolve("empty.txt"), "");
        assertEquals("", text(read("empty.txt", null, 3)));
        assertEquals("", text(read("empty.txt", null, null)));
    }

    @Test
    void aBinaryFileIsNotReadAsTextAndALargeOneOnlyInParts(@TempDir Path other) throws Exception {
        Files.write(f.root.resolve("bin.dat"), new byte[] {1, 2, 0, 3});
        ToolResult binary = read("bin.dat", null, null);
        assertTrue(binary.isError());
        assertTrue(text(binary).contains("binary"), text(binary));

        Fixture small = new Fixture(other, ":rw", Map.of("maxReadBytes", "1024"));
        Files.writeString(small.root.resolve("big.txt"), "line\n".repeat(1000));
        ToolResult whole = call(new ReadTextFileTool(small.workspace), new ReadTextFileTool.Arguments("big.txt",
                Optional.empty(), Optional.empty()));
        assertTrue(whole.isError());
        assertTrue(text(whole).contains("read limit"), text(whole));
        ToolResult head = call(new ReadTextFileTool(small.workspace), new ReadTextFileTool.Arguments("big.txt",
                Optional.of(3), Optional.empty()));
        assertEquals("line\nline\nline", text(head));
        ToolResult tooMuch = call(new ReadTextFileTool(small.workspace), new ReadTextFileTool.Arguments("big.txt",
                Optional.empty(), Optional.of(900)));
        assertTrue(text(tooMuch).contains("Stopped at the read limit"), text(tooMuch));
        assertTrue(text(tooMuch).length() < 1200);
    }

    @Test
    void aDirectoryIsNotAFile() throws Exception {
        ToolResult result = read("sub", null, null);
        assertTrue(result.isError());
        assertTrue(text(result).contains("is a directory"), text(result));
        assertTrue(text(read("nope.txt", null, null)).contains("No such file"));
    }

    @Test
    void severalFilesAreReadAndAFailureStopsNone() throws Exception {
        ToolResult result = call(new ReadMultipleFilesTool(f.workspace),
                new ReadMultipleFilesTool.Arguments(List.of("a.txt", "nope.txt", "sub/b.txt")));
        String text = text(result);
        assertTrue(text.startsWith("a.txt:\nalpha\nbeta\ngamma\n\n\n---\nnope.txt: Error - "), text);
        assertTrue(text.endsWith("---\nsub/b.txt:\nbravo\n\n"), text);
    }

    @Test
    void mediaIsImageAudioOrABlob() throws Exception {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1};
        Files.write(f.root.resolve("p.png"), png);
        Files.write(f.root.resolve("s.mp3"), png);
        Files.write(f.root.resolve("x.bin"), png);
        ReadMediaFileTool media = new ReadMediaFileTool(f.workspace);
        ImageContent image = assertInstanceOf(ImageContent.class, call(media, new PathArgument("p.png")).content().get(0));
        assertEquals("image/png", image.mimeType());
        assertEquals(Base64.getEncoder().encodeToString(png), image.data());
        assertEquals("audio/mpeg", assertInstanceOf(AudioContent.class,
                call(media, new PathArgument("s.mp3")).content().get(0)).mimeType());
        EmbeddedResource blob = assertInstanceOf(EmbeddedResource.class,
                call(media, new PathArgument("x.bin")).content().get(0));
        assertEquals("application/octet-stream", blob.resource().mimeType());
    }

    @Test
    void anEditReplacesExactlyOnceAndShowsTheDiff() throws Exception {
        ToolResult preview = edit("a.txt", true, new EditFileTool.Edit("beta", "BETA"));
        assertFalse(preview.isError(), text(preview));
        assertEquals("alpha\nbeta\ngamma\n", Files.readString(f.root.resolve("a.txt")), "a dry run writes nothing");
        String path = f.root.resolve("a.txt").toString();
        assertEquals("```diff\nIndex: " + path + "\n===================================================================\n"
                + "--- " + path + "\toriginal\n+++ " + path + "\tmodified\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n"
                + " gamma\n```\n\n", text(preview));
        ToolResult applied = edit("a.txt", false, new EditFileTool.Edit("beta", "BETA"),
                new EditFileTool.Edit("BETA\ngamma", "delta"));
        assertFalse(applied.isError(), text(applied));
        assertEquals("alpha\ndelta\n", Files.readString(f.root.resolve("a.txt")));
        assertTrue(((EditFileTool.Edited) applied.structuredContent()).applied());
    }

    /**
     * A large edit's diff is cut at {@code maxDiffBytes} after a whole line, with a note, so the result stays under
     * the engine's output limit: that limit failed a call whose file was already written (a client then applied
     * the edit again, its text still unique).
     */
    @Test
    void aLargeEditsDiffIsCutWhileTheEditIsAppliedWhole() throws Exception {
        Fixture small = new Fixture(Files.createDirectories(temp.resolve("small")), ":rw", Map.of("maxDiffBytes", 4096));
        Files.writeString(small.root.resolve("big.txt"), "head\nX\ntail\n");
        String added = "line of added text\n".repeat(1_000) + "X";
        ToolResult applied = call(new EditFileTool(small.workspace), new EditFileTool.Arguments("big.txt",
                List.of(new EditFileTool.Edit("X", added)), Optional.of(false)));
        assertFalse(applied.isError(), text(applied));
        assertEquals("head\n" + added + "\ntail\n", Files.readString(small.root.resolve("big.txt")), "applied whole");
        String diff = ((EditFileTool.Edited) applied.structuredContent()).diff();
        assertTrue(diff.getBytes(StandardCharsets.UTF_8).length < 4096 + 200, diff.length() + " characters");
        assertTrue(diff.endsWith("more lines past maxDiffBytes; the edit was applied whole)\n"), diff);
        assertTrue(text(applied).contains("the diff is cut here"), "the text shows the same cut diff");

        // counted as JSON carries it: control characters escaped take 6 bytes each
        Files.writeString(small.root.resolve("ctl.txt"), "Y\n");
        ToolResult controls = call(new EditFileTool(small.workspace), new EditFileTool.Arguments("ctl.txt",
                List.of(new EditFileTool.Edit("Y", "\u001b".repeat(40) + "\n".repeat(1) + ("\u001b".repeat(40) + "\n").repeat(200))),
                Optional.of(false)));
        assertFalse(controls.isError(), text(controls));
        String shown = ((EditFileTool.Edited) controls.structuredContent()).diff();
        long asJson = shown.chars().mapToLong(c -> c == '\n' || c == '\t' || c == '"' || c == '\\' ? 2 : c < 0x20 ? 6 : 1).sum();
        assertTrue(asJson < 4096 + 200, asJson + " bytes as JSON");
        assertTrue(shown.contains("the diff is cut here"), shown);
    }

    @Test
    void anEditThatMatchesNothingOrTwiceWritesNothing() throws Exception {
        Files.writeString(f.root.resolve("twice.txt"), "x = 1\nx = 1\n  indented\n");
        ToolResult none = edit("twice.txt", false, new EditFileTool.Edit("y = 2", "z"));
        assertTrue(none.isError());
        assertTrue(text(none).contains("not found"), text(none));
        ToolResult twice = edit("twice.txt", false, new EditFileTool.Edit("x = 1", "x = 2"));
        assertTrue(twice.isError());
        assertTrue(text(twice).contains("occurs 2 times"), text(twice));
        ToolResult spacing = edit("twice.txt", false, new EditFileTool.Edit("indented\n", "i"),
                new EditFileTool.Edit("x = 1\n  indented", "q"));
        assertTrue(spacing.isError(), "edit 2 sees the text edit 1 left: " + text(spacing));
        assertTrue(text(spacing).contains("Edit 2 of 2"), text(spacing));
        ToolResult whitespace = edit("twice.txt", false, new EditFileTool.Edit("x  =  1\nx = 1\nindented", "q"));
        assertTrue(text(whitespace).contains("different whitespace"), text(whitespace));
        assertEquals("x = 1\nx = 1\n  indented\n", Files.readString(f.root.resolve("twice.txt")));
    }

    @Test
    void editsAreBoundedInNumberAndStopWhenTheCallIsStopped() throws Exception {
        Fixture few = new Fixture(Files.createDirectories(temp.resolve("few")), ":ro", Map.of("maxEdits", 2));
        Files.writeString(few.root.resolve("a.txt"), "a b c\n");
        EditFileTool.Edit[] three = {new EditFileTool.Edit("a", "A"), new EditFileTool.Edit("b", "B"),
                new EditFileTool.Edit("c", "C")};
        ToolResult refused = call(new EditFileTool(few.workspace), new EditFileTool.Arguments("a.txt", List.of(three),
                Optional.of(true)));
        assertTrue(refused.isError());
        assertTrue(text(refused).contains("3 edits were given, more than the 2 one call may make"), text(refused));
        ToolResult two = call(new EditFileTool(few.workspace), new EditFileTool.Arguments("a.txt",
                List.of(three[0], three[1]), Optional.of(true)));
        assertFalse(two.isError(), text(two));

        // a dry run needs no writable root, and each edit searches the whole file: an interrupted call stops
        Thread.currentThread().interrupt();
        try {
            EditFileTool.apply("a b c\n", List.of(three));
            throw new AssertionError("an interrupted edit went on");
        } catch (java.io.InterruptedIOException expected) {
            assertTrue(expected.getMessage().contains("edit 1 of 3"), expected.getMessage());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aLineBreakInAFileNameCannotForgeListingLines() throws Exception {
        Files.writeString(f.root.resolve("x\n[DIR] secrets"), "");
        String listing = text(call(new ListDirectoryTool(f.workspace), new PathArgument(".")));
        assertFalse(listing.contains("\n[DIR] secrets"), listing);
        assertTrue(listing.contains("[FILE] x\\u000A[DIR] secrets"), listing);
        ToolResult found = call(new SearchFilesTool(f.workspace), new SearchFilesTool.Arguments(".", "*secrets*",
                Optional.empty()));
        assertEquals(1, text(found).lines().count(), text(found));
        assertTrue(text(found).endsWith("x\\u000A[DIR] secrets"), text(found));
    }

    @Test
    void aSearchThatMeetsTheDeepestLevelSaysItsResultIsIncomplete() throws Exception {
        Path deep = f.root;
        for (int i = 0; i < Walker.MAX_DEPTH + 4; i++) {
            deep = deep.resolve("d");
        }
        Files.createDirectories(deep);
        Files.writeString(deep.resolve("needle.txt"), "x");
        ToolResult found = call(new SearchFilesTool(f.workspace), new SearchFilesTool.Arguments(".", "**/needle.txt",
                Optional.empty()));
        // before, "No matches found" and nothing more: as if the file were not there
        assertTrue(text(found).contains("the deepest level a walk goes"), text(found));
    }

    @Test
    void aLongOldTextIsFoundAsIndexOfFindsItAndItsSearchStopsWithTheCall() throws Exception {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 300; round++) {
            StringBuilder text = new StringBuilder();
            int length = 200 + random.nextInt(2000);
            for (int i = 0; i < length; i++) {
                text.append((char) ('a' + random.nextInt(2))); // two letters: many near matches
            }
            int start = random.nextInt(length - 100);
            String part = round % 3 == 0 ? "ab".repeat(40) : text.substring(start, start + 65 + random.nextInt(35));
            int from = random.nextInt(50);
            assertEquals(text.indexOf(part, from), EditFileTool.find(text.toString(), part, from), part);
        }
        // the worst case of indexOf (a 1 MB text that nearly matches everywhere) is one pass here
        String file = "a".repeat(1 << 20);
        assertEquals(-1, EditFileTool.find(file, "a".repeat(1 << 16) + "b", 0));
        Thread.currentThread().interrupt();
        try {
            EditFileTool.find(file, "a".repeat(100) + "b", 0);
            throw new AssertionError("a stopped call's search went on");
        } catch (java.io.InterruptedIOException expected) {
            // stopped
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anEditKeepsWindowsLineEndsAndPermissions() throws Exception {
        Path file = f.root.resolve("win.txt");
        Files.writeString(file, "one\r\ntwo\r\nthree\r\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-x---"));
        ToolResult result = edit("win.txt", false, new EditFileTool.Edit("two\n", "2\n"));
        assertFalse(result.isError(), text(result));
        assertEquals("one\r\n2\r\nthree\r\n", Files.readString(file));
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void aPrivateFileBeingRewrittenIsNeverReadableByOthers() throws Exception {
        // the temporary file was made with the default permissions (0644) and given the file's own only before the
        // rename: a poll of the folder saw the new content of a 0600 file readable by everyone (attacker review)
        Path file = f.root.resolve("secret.txt");
        Files.writeString(file, "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread poll = new Thread(() -> {
            while (writing.get()) {
                try (var entries = Files.newDirectoryStream(f.root, ".quiver-*.tmp")) {
                    for (Path temporary : entries) {
                        try {
                            seen.add(PosixFilePermissions.toString(Files.getPosixFilePermissions(temporary)));
                        } catch (java.io.IOException gone) {
                            // renamed meanwhile
                        }
                    }
                } catch (java.io.IOException e) {
                    // the folder is there throughout
                }
            }
        });
        poll.start();
        String content = "x".repeat(3 << 20);
        WriteFileTool write = new WriteFileTool(f.workspace);
        try {
            for (int i = 0; i < 8; i++) {
                ToolResult written = call(write, new WriteFileTool.Arguments("secret.txt", content + i));
                assertFalse(written.isError(), text(written));
            }
        } finally {
            writing.set(false);
            poll.join();
        }
        assertTrue(seen.stream().allMatch("rw-------"::equals), seen.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void writeCreatesOrReplacesButNeedsTheParent() throws Exception {
        WriteFileTool write = new WriteFileTool(f.workspace);
        ToolResult created = call(write, new WriteFileTool.Arguments("sub/new.txt", "héllo"));
        assertFalse(created.isError(), text(created));
        assertEquals("héllo", Files.readString(f.root.resolve("sub/new.txt"), StandardCharsets.UTF_8));
        assertTrue(((WriteFileTool.Written) created.structuredContent()).created());
        ToolResult replaced = call(write, new WriteFileTool.Arguments("sub/new.txt", "bye"));
        assertFalse(((WriteFileTool.Written) replaced.structuredContent()).created());
        assertEquals("bye", Files.readString(f.root.resolve("sub/new.txt")));
        ToolResult noParent = call(write, new WriteFileTool.Arguments("nowhere/x.txt", "x"));
        assertTrue(text(noParent).contains("Parent directory does not exist"), text(noParent));
        assertTrue(call(write, new WriteFileTool.Arguments("sub", "x")).isError());
    }

    @Test
    void moveRenamesButNeverOverwrites() throws Exception {
        MoveFileTool move = new MoveFileTool(f.workspace);
        assertFalse(call(move, new MoveFileTool.Arguments("a.txt", "sub/a2.txt")).isError());
        assertEquals("alpha\nbeta\ngamma\n", Files.readString(f.root.resolve("sub/a2.txt")));
        ToolResult over = call(move, new MoveFileTool.Arguments("sub/a2.txt", "sub/b.txt"));
        assertTrue(text(over).contains("already exists"), text(over));
        assertEquals("bravo\n", Files.readString(f.root.resolve("sub/b.txt")));
        assertTrue(call(move, new MoveFileTool.Arguments("sub", "sub/inner")).isError());
        assertTrue(call(move, new MoveFileTool.Arguments("nope", "x")).isError());
    }

    @Test
    void listingsAreSortedWithSizesAndTotals() throws Exception {
        Files.writeString(f.root.resolve("B.txt"), "12345");
        ToolResult plain = call(new ListDirectoryTool(f.workspace), new PathArgument("."));
        assertEquals("[FILE] a.txt\n[FILE] abs-out\n[FILE] B.txt\n[FILE] dir-out\n[FILE] link-in\n[FILE] link-out\n"
                + "[FILE] loop1\n[FILE] loop2\n[DIR] sub", text(plain));
        ToolResult sized = call(new ListDirectoryWithSizesTool(f.workspace),
                new ListDirectoryWithSizesTool.Arguments("sub", Optional.of(ListDirectoryWithSizesTool.SortBy.size)));
        assertEquals(String.format("[FILE] %-30s %10s%n%nTotal: 1 files, 0 directories%nCombined size: 6 B", "b.txt",
                "6 B"), text(sized));
    }

    @Test
    void theTreeIsTheReferenceServersJsonToADepth() throws Exception {
        Files.createDirectories(f.root.resolve("sub/deeper"));
        ToolResult tree = call(new DirectoryTreeTool(f.workspace),
                new DirectoryTreeTool.Arguments("sub", Optional.empty(), Optional.empty()));
        assertEquals("[\n  {\n    \"name\": \"b.txt\",\n    \"type\": \"file\"\n  },\n  {\n    \"name\": \"deeper\",\n"
                + "    \"type\": \"directory\",\n    \"children\": []\n  }\n]", text(tree));
        ToolResult shallow = call(new DirectoryTreeTool(f.workspace),
                new DirectoryTreeTool.Arguments(".", Optional.of(List.of("loop*", "*-out", "link-in")), Optional.of(1)));
        DirectoryTreeTool.Tree flat = (DirectoryTreeTool.Tree) shallow.structuredContent();
        assertEquals(List.of("a.txt", "sub"), flat.entries().stream().map(DirectoryTreeTool.TreeEntry::path).toList());
        assertFalse(text(shallow).contains("children"), text(shallow));
    }

    @Test
    void searchFilesMatchesGlobsLikeTheReference() throws Exception {
        Files.createDirectories(f.root.resolve("sub/deep"));
        Files.writeString(f.root.resolve("sub/deep/c.txt"), "c");
        Files.writeString(f.root.resolve(".hidden.txt"), "h");
        SearchFilesTool search = new SearchFilesTool(f.workspace);
        assertEquals(List.of(f.root + "/.hidden.txt", f.root + "/a.txt"), found(search, "*.txt", List.of()));
        assertEquals(List.of(f.root + "/.hidden.txt", f.root + "/a.txt", f.root + "/sub/b.txt",
                f.root + "/sub/deep/c.txt"), found(search, "**/*.txt", List.of()));
        assertEquals(List.of(f.root + "/a.txt", f.root + "/sub/b.txt"),
                found(search, "**/{a,b}.txt", List.of()));
        assertEquals(List.of(f.root + "/sub/b.txt"), found(search, "**/*.txt", List.of("sub/deep", ".*", "a.txt")));
        assertEquals(List.of(f.root + "/sub/deep"), found(search, "sub/d?e[a-z]", List.of()));
    }

    private static List<String> found(SearchFilesTool search, String pattern, List<String> excludes) throws Exception {
        ToolResult result = call(search, new SearchFilesTool.Arguments(".", pattern, Optional.of(excludes)));
        return ((SearchFilesTool.Found) result.structuredContent()).matches();
    }

    @Test
    void contentSearchFindsLinesWithContext() throws Exception {
        Files.writeString(f.root.resolve("code.java"), "a\nb\nTODO one\nc\nd\ne\nf\ntodo two\ng\n");
        SearchFileContentsTool grep = new SearchFileContentsTool(f.workspace);
        ToolResult result = call(grep, new SearchFileContentsTool.Arguments(".", "todo", Optional.of("*.java"),
                Optional.empty(), Optional.of(true), Optional.of(1), Optional.empty()));
        String file = f.root.resolve("code.java").toString();
        assertEquals(file + "-2- b\n" + file + ":3: TODO one\n" + file + "-4- c\n--\n" + file + "-7- f\n" + file
                + ":8: todo two\n" + file + "-9- g\n[2 matches in 1 file]", text(result));
        SearchFileContentsTool.Found found = (SearchFileContentsTool.Found) result.structuredContent();
        assertEquals(List.of(3, 8), found.matches().stream().map(SearchFileContentsTool.Match::line).toList());
        ToolResult one = call(grep, new SearchFileContentsTool.Arguments(".", "alpha|bravo", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(1)));
        assertTrue(((SearchFileContentsTool.Found) one.structuredContent()).truncated());
        ToolResult bad = call(grep, new SearchFileContentsTool.Arguments(".", "(", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        assertTrue(text(bad).contains("Invalid regular expression"), text(bad));
    }

    /**
     * Many matches with long context lines would make structured content far above the engine's output limit
     * (which fails the whole call): the search stops within its byte budget instead, with what it found so far.
     */
    @Test
    void aBroadSearchWithLongContextStopsWithinItsByteBudget() throws Exception {
        String line = "wide " + "w".repeat(400) + "\n";
        for (int i = 0; i < 5; i++) {
            Files.writeString(f.root.resolve("wide-" + i + ".txt"), line.repeat(300));
        }
        ToolResult result = call(new SearchFileContentsTool(f.workspace), new SearchFileContentsTool.Arguments(".",
                "wide", Optional.of("wide-*.txt"), Optional.empty(), Optional.empty(), Optional.of(20),
                Optional.empty()));
        assertFalse(result.isError(), text(result));
        SearchFileContentsTool.Found found = (SearchFileContentsTool.Found) result.structuredContent();
        assertTrue(found.truncated());
        assertTrue(found.matches().size() > 10, found.matches().size() + " matches");
        long size = 0;
        for (SearchFileContentsTool.Match m : found.matches()) {
            size += 64 + m.path().length() + m.text().length();
            for (String context : m.before()) {
                size += context.length() + 3;
            }
            for (String context : m.after()) {
                size += context.length() + 3;
            }
        }
        assertTrue(size <= 512 << 10, size + " bytes of structured content");
        String text = text(result);
        assertTrue(text.length() <= 512 << 10, text.length() + " characters of text");
        assertTrue(text.endsWith("; stopped early: the output limit of 524288 bytes (fewer contextLines, or a narrower"
                + " path, filePattern or pattern, show the rest)]"), text.substring(text.lastIndexOf('[')));
    }

    @Test
    void aCatastrophicRegexStopsAtItsTimeLimit(@TempDir Path other) throws Exception {
        Fixture quick = new Fixture(other, ":rw", Map.of("regexTimeoutMs", "200"));
        Files.writeString(quick.root.resolve("evil.txt"), "a".repeat(60) + "!\n");
        long start = System.nanoTime();
        ToolResult result = call(new SearchFileContentsTool(quick.workspace), new SearchFileContentsTool.Arguments(".",
                "(.*a){12}b", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(result.isError(), text(result));
        assertTrue(text(result).contains("took longer than 200 ms"), text(result));
        assertTrue(ms < 5000, ms + " ms");
    }

    @Test
    void fileInfoHasSizeTimesPermissionsAndLinks() throws Exception {
        Files.setPosixFilePermissions(f.root.resolve("a.txt"), PosixFilePermissions.fromString("rw-r-----"));
        ToolResult result = call(new GetFileInfoTool(f.workspace), new PathArgument("link-in"));
        GetFileInfoTool.FileInfo info = (GetFileInfoTool.FileInfo) result.structuredContent();
        assertEquals(f.root.resolve("a.txt").toString(), info.path());
        assertEquals(17, info.size());
        assertEquals("640", info.permissions());
        assertEquals(1, info.links());
        assertTrue(info.isFile());
        assertTrue(text(result).startsWith("size: 17\ncreated: "), text(result));
        GetFileInfoTool.FileInfo root = (GetFileInfoTool.FileInfo) call(new GetFileInfoTool(f.workspace),
                new PathArgument(".")).structuredContent();
        assertEquals("directory", root.type());
    }

    @Test
    void everyArgumentsAndOutputRecordMakesASchema() {
        for (Class<?> type : List.of(ReadTextFileTool.Arguments.class, PathArgument.class,
                ReadMultipleFilesTool.Arguments.class, WriteFileTool.Arguments.class, WriteFileTool.Written.class,
                EditFileTool.Arguments.class, EditFileTool.Edited.class, CreateDirectoryTool.Created.class,
                ListDirectoryTool.Listing.class, ListDirectoryWithSizesTool.Arguments.class,
                ListDirectoryWithSizesTool.SizedListing.class, DirectoryTreeTool.Arguments.class,
                DirectoryTreeTool.Tree.class, MoveFileTool.Arguments.class, MoveFileTool.Moved.class,
                SearchFilesTool.Arguments.class, SearchFilesTool.Found.class, SearchFileContentsTool.Arguments.class,
                SearchFileContentsTool.Found.class, GetFileInfoTool.FileInfo.class,
                ListAllowedDirectoriesTool.Arguments.class, ListAllowedDirectoriesTool.Allowed.class)) {
            assertEquals("object", RecordSchemas.of(type).get("type"), type.getName());
        }
        assertEquals(List.of("path", "edits"), RecordSchemas.of(EditFileTool.Arguments.class).get("required"));
    }
}
