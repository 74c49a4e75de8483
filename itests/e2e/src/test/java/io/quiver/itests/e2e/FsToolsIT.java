package io.quiver.itests.e2e;

import static io.quiver.itests.e2e.FsTree.args;
import static io.quiver.itests.e2e.FsTree.firstText;
import static io.quiver.itests.e2e.FsTree.isError;
import static io.quiver.itests.e2e.FsTree.sortedLines;
import static io.quiver.itests.e2e.FsTree.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Quiver's built-in file tools ({@code tools.fs}, in the default features) next to the reference
 * {@code @modelcontextprotocol/server-filesystem} (pinned in {@code upstreams/package.json}, run with node over
 * stdio), both on the same generated tree: the same reads, listings, trees, searches, file infos, writes, edits,
 * directories and moves give the same content (formatting aside). Edits run on two identical copies inside the
 * tree, one per server. Then what the reference does not have: the regular-expression content search, checked
 * against the files on disk; and the client's MCP roots narrowing the configured ones, over {@code quiver run
 * --stdio} and the reference alike.
 */
class FsToolsIT {

    private static final Duration T = Duration.ofSeconds(20);

    /** The reference's tools: the tool set Quiver must have, under the same names. */
    private static final Set<String> REFERENCE_TOOLS = Set.of("read_file", "read_text_file", "read_media_file",
            "read_multiple_files", "write_file", "edit_file", "create_directory", "list_directory",
            "list_directory_with_sizes", "directory_tree", "move_file", "search_files", "get_file_info",
            "list_allowed_directories");
    private static final Set<String> READ_ONLY = Set.of("read_file", "read_text_file", "read_media_file",
            "read_multiple_files", "list_directory", "list_directory_with_sizes", "directory_tree", "search_files",
            "search_file_contents", "get_file_info", "list_allowed_directories");

    private static FsTree tree;
    private static QuiverServer server;
    private static McpClient quiver;
    private static FsStdioPeer reference;

    @BeforeAll
    static void start() throws Exception {
        tree = FsTree.create("tools");
        tree.project(tree.root.resolve("edits-q"));
        tree.project(tree.root.resolve("edits-r"));
        server = QuiverServer.start("fs-tools", "core,http,tools-default", home -> Files.writeString(
                home.resolve("etc").resolve("io.quiver.tools.fs.cfg"), "roots = " + tree.root + ":rw\n"));
        quiver = McpClient.connect(server.url(), "fs-tools-it", T);
        reference = FsStdioPeer.reference(tree.base.resolve("reference.log"), tree.root);
    }

    @AfterAll
    static void stop() throws Exception {
        if (reference != null) {
            reference.close();
        }
        if (quiver != null) {
            quiver.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static JsonNode q(String tool, Map<String, ?> arguments) throws Exception {
        return quiver.callTool(tool, arguments);
    }

    private static JsonNode r(String tool, Map<String, ?> arguments) throws Exception {
        return reference.call(tool, arguments);
    }

    private static String log() {
        try {
            return "\n--- quiver log ---\n" + server.log() + "\n--- reference log ---\n" + reference.log();
        } catch (Exception e) {
            return "";
        }
    }

    @Test
    void everyReferenceToolIsThereWithItsArgumentsAndEveryToolHasTheRightHints() throws Exception {
        Map<String, JsonNode> ours = quiver.listTools();
        Map<String, JsonNode> theirs = reference.tools();
        assertEquals(REFERENCE_TOOLS, theirs.keySet(), "the pinned reference's tool set");
        for (String name : REFERENCE_TOOLS) {
            JsonNode mine = ours.get(name);
            assertNotNull(mine, name + " is listed");
            Set<String> theirArguments = new HashSet<>();
            theirs.get(name).path("inputSchema").path("properties").propertyNames().forEach(theirArguments::add);
            Set<String> myArguments = new HashSet<>();
            mine.path("inputSchema").path("properties").propertyNames().forEach(myArguments::add);
            assertTrue(myArguments.containsAll(theirArguments), name + ": " + myArguments + " has " + theirArguments);
            JsonNode theirHints = theirs.get(name).path("annotations");
            JsonNode myHints = mine.path("annotations");
            assertEquals(theirHints.path("readOnlyHint").asBoolean(false), myHints.path("readOnlyHint").asBoolean(),
                    name);
            for (String hint : List.of("destructiveHint", "idempotentHint")) {
                if (theirHints.has(hint)) {
                    assertEquals(theirHints.get(hint).asBoolean(), myHints.path(hint).asBoolean(), name + " " + hint);
                }
            }
        }
        for (String name : Stream.concat(REFERENCE_TOOLS.stream(), Stream.of("search_file_contents")).toList()) {
            JsonNode hints = ours.get(name).path("annotations");
            assertEquals(READ_ONLY.contains(name), hints.path("readOnlyHint").asBoolean(), name);
            assertFalse(hints.path("openWorldHint").asBoolean(true), name + " reaches no open world");
            assertTrue(hints.has("destructiveHint") && hints.has("idempotentHint"), name + ": every hint is set");
            if (READ_ONLY.contains(name)) {
                assertFalse(hints.path("destructiveHint").asBoolean(true), name);
                assertTrue(hints.path("idempotentHint").asBoolean(false), name);
            }
            JsonNode path = ours.get(name).path("inputSchema").path("properties").path("path");
            if (!path.isMissingNode()) {
                assertFalse(path.path("description").asString("").isEmpty(), name + ": its path is described");
            }
        }
    }

    @Test
    void readsGiveTheSameText() throws Exception {
        for (String file : List.of("README.md", "notes.txt", "no-newline.txt", "crlf.txt", "empty.txt",
                "unicode-é✓.txt", "data.json", "src/main/App.java", "docs/deep/er/est.md", ".hidden/config",
                "big.txt", tree.root + "/docs/guide.md", "src/../README.md")) {
            for (String tool : List.of("read_text_file", "read_file")) {
                JsonNode mine = q(tool, args("path", file));
                JsonNode theirs = r(tool, args("path", file));
                assertFalse(isError(mine), file + ": " + mine + log());
                assertFalse(isError(theirs), file + ": " + theirs);
                assertEquals(text(theirs), text(mine), tool + " " + file);
            }
        }
        for (String file : List.of("notes.txt", "no-newline.txt", "big.txt", "crlf.txt", "empty.txt")) {
            for (int n : List.of(1, 3, 5)) {
                assertEquals(firstText(r("read_text_file", args("path", file, "head", n))).replace("\r", ""),
                        firstText(q("read_text_file", args("path", file, "head", n))), "head " + n + " of " + file);
                List<String> myTail = firstText(q("read_text_file", args("path", file, "tail", n))).lines().toList();
                List<String> theirTail = firstText(r("read_text_file", args("path", file, "tail", n))).replace("\r", "")
                        .lines().toList();
                // the reference counts the end of the last line as one more (empty) line: it gives one line less
                assertTrue(myTail.size() >= theirTail.size() && myTail.subList(myTail.size() - theirTail.size(),
                        myTail.size()).equals(theirTail), "tail " + n + " of " + file + ": " + myTail + " / " + theirTail);
                assertTrue(myTail.size() == Math.min(n, Files.readAllLines(tree.root.resolve(file)).size()),
                        "tail " + n + " of " + file + " gives that many lines: " + myTail);
            }
        }
        assertEquals(isError(r("read_text_file", args("path", "nope.txt"))), isError(q("read_text_file",
                args("path", "nope.txt"))));
        assertTrue(isError(q("read_text_file", args("path", "notes.txt", "head", 1, "tail", 1))));
        assertTrue(isError(r("read_text_file", args("path", "notes.txt", "head", 1, "tail", 1))));
    }

    @Test
    void severalFilesReadTheSameAndAFailureStopsNone() throws Exception {
        List<String> paths = List.of("README.md", "nope.txt", "docs/api.md", "../outside/canary.txt", "crlf.txt");
        Map<String, String> mine = parts(text(q("read_multiple_files", args("paths", paths))));
        Map<String, String> theirs = parts(text(r("read_multiple_files", args("paths", paths))));
        assertEquals(theirs.keySet(), mine.keySet());
        for (String path : paths) {
            boolean failedHere = mine.get(path).startsWith("ERROR");
            assertEquals(theirs.get(path).startsWith("ERROR"), failedHere, path + ": " + mine + " / " + theirs);
            if (!failedHere) {
                assertEquals(theirs.get(path), mine.get(path), path);
            }
        }
        assertFalse(mine.toString().contains(FsTree.CANARY));
    }

    /** read_multiple_files' text by path: the content, or ERROR. */
    private static Map<String, String> parts(String text) {
        Map<String, String> parts = new LinkedHashMap<>();
        for (String part : text.split("\n---\n")) {
            int colon = part.indexOf(':');
            String path = part.substring(0, colon);
            String rest = part.substring(colon + 1);
            parts.put(path, rest.startsWith(" Error - ") ? "ERROR" : rest);
        }
        return parts;
    }

    @Test
    void mediaIsTheSameImageAudioOrBlob() throws Exception {
        for (String file : List.of("pixel.png", "beep.wav", "blob.bin")) {
            JsonNode mine = FsTree.result(q("read_media_file", args("path", file))).path("content").path(0);
            JsonNode theirs = FsTree.result(r("read_media_file", args("path", file))).path("content").path(0);
            assertEquals(theirs.path("type").asString(), mine.path("type").asString(), file);
            if (mine.has("resource")) {
                assertEquals(theirs.path("resource").path("blob").asString(), mine.path("resource").path("blob")
                        .asString(), file);
                assertEquals(theirs.path("resource").path("mimeType").asString(), mine.path("resource")
                        .path("mimeType").asString(), file);
                assertEquals(theirs.path("resource").path("uri").asString(), mine.path("resource").path("uri")
                        .asString(), file);
            } else {
                assertEquals(theirs.path("data").asString(), mine.path("data").asString(), file);
                assertEquals(theirs.path("mimeType").asString(), mine.path("mimeType").asString(), file);
            }
        }
    }

    @Test
    void listingsHaveTheSameEntriesSizesAndTotals() throws Exception {
        for (String dir : List.of(".", "src", "src/main", "docs/deep", "empty-dir", tree.root + "/.hidden")) {
            assertEquals(sortedLines(text(r("list_directory", args("path", dir)))),
                    sortedLines(text(q("list_directory", args("path", dir)))), dir);
            for (String sortBy : List.of("name", "size")) {
                List<String> mine = squeezed(text(q("list_directory_with_sizes", args("path", dir, "sortBy", sortBy))));
                List<String> theirs = squeezed(text(r("list_directory_with_sizes", args("path", dir, "sortBy",
                        sortBy))));
                assertEquals(theirs.stream().sorted().toList(), mine.stream().sorted().toList(), dir + " " + sortBy);
                if (sortBy.equals("size")) {
                    assertEquals(sizesOf(theirs), sizesOf(mine), "largest first: " + dir);
                }
            }
        }
        assertEquals(isError(r("list_directory", args("path", "nope"))), isError(q("list_directory",
                args("path", "nope"))));
        assertTrue(isError(q("list_directory", args("path", "README.md"))));
    }

    private static List<String> squeezed(String text) {
        return text.lines().filter(l -> !l.isBlank()).map(l -> l.trim().replaceAll("\\s+", " ")).toList();
    }

    private static List<String> sizesOf(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("[FILE]")).map(l -> {
            String[] words = l.split(" ");
            return words[words.length - 2] + " " + words[words.length - 1];
        }).toList();
    }

    @Test
    void treesAreTheSame() throws Exception {
        for (List<String> excludes : List.of(List.<String>of(), List.of("docs"), List.of("*.md", "logs"),
                List.of("**/*.java", ".hidden"), List.of("edits-*"))) {
            for (String dir : List.of(".", "src", "docs")) {
                JsonNode mine = McpClient.JSON.readTree(firstText(q("directory_tree", args("path", dir,
                        "excludePatterns", excludes))));
                JsonNode theirs = McpClient.JSON.readTree(firstText(r("directory_tree", args("path", dir,
                        "excludePatterns", excludes))));
                assertEquals(canonical(theirs), canonical(mine), dir + " without " + excludes);
            }
        }
        JsonNode shallow = McpClient.JSON.readTree(firstText(q("directory_tree", args("path", ".", "maxDepth", 1))));
        for (JsonNode entry : shallow) {
            assertFalse(entry.has("children"), "maxDepth 1 shows no children: " + entry);
        }
    }

    /** A tree with every level's entries ordered by name. */
    private static JsonNode canonical(JsonNode node) {
        if (node.isArray()) {
            List<JsonNode> entries = new ArrayList<>();
            node.forEach(entry -> entries.add(canonical(entry)));
            entries.sort((a, b) -> a.path("name").asString().compareTo(b.path("name").asString()));
            ArrayNode sorted = McpClient.JSON.createArrayNode();
            entries.forEach(sorted::add);
            return sorted;
        }
        if (node.isObject()) {
            ObjectNode copy = McpClient.JSON.createObjectNode();
            node.properties().forEach(e -> copy.set(e.getKey(), canonical(e.getValue())));
            return copy;
        }
        return node;
    }

    @Test
    void globSearchesFindTheSameFiles() throws Exception {
        List<List<Object>> searches = List.of(
                List.of(".", "*.md", List.of()), List.of(".", "**/*.md", List.of()),
                List.of(".", "**/*.java", List.of()), List.of("src", "**", List.of()),
                List.of(".", "**/deep/**", List.of()), List.of(".", "*.{json,md}", List.of()),
                List.of(".", ".*", List.of()), List.of(".", "**/.*", List.of()),
                List.of(".", "**/*.md", List.of("docs")), List.of(".", "**/*", List.of("edits-*", "docs/**")),
                List.of(".", "**/App?.java", List.of()), List.of(".", "**/[AU]*.java", List.of()),
                List.of("docs", "*", List.of()), List.of(".", "nothing-like-this", List.of()));
        for (List<Object> s : searches) {
            Map<String, Object> arguments = args("path", s.get(0), "pattern", s.get(1), "excludePatterns", s.get(2));
            String mine = text(q("search_files", arguments));
            String theirs = text(r("search_files", arguments));
            assertEquals(sortedLines(theirs), sortedLines(mine), s.toString());
        }
    }

    @Test
    void fileInfoIsTheSame() throws Exception {
        for (String path : List.of("README.md", "src", "empty.txt", "pixel.png", ".")) {
            Map<String, String> mine = info(text(q("get_file_info", args("path", path))));
            Map<String, String> theirs = info(text(r("get_file_info", args("path", path))));
            for (String key : List.of("size", "isDirectory", "isFile", "permissions")) {
                assertEquals(theirs.get(key), mine.get(key), path + " " + key + ": " + mine + " / " + theirs);
            }
        }
    }

    private static Map<String, String> info(String text) {
        Map<String, String> info = new TreeMap<>();
        text.lines().forEach(l -> {
            int colon = l.indexOf(": ");
            if (colon > 0) {
                info.put(l.substring(0, colon), l.substring(colon + 2));
            }
        });
        return info;
    }

    @Test
    void theAllowedDirectoriesAreTheSame() throws Exception {
        List<String> mine = firstText(q("list_allowed_directories", Map.of())).lines().skip(1)
                .takeWhile(l -> !l.isBlank()).toList();
        List<String> theirs = firstText(r("list_allowed_directories", Map.of())).lines().skip(1).toList();
        assertEquals(theirs, mine);
        assertEquals(List.of(tree.root.toString()), mine);
    }

    @Test
    void editsGiveTheSameDiffsAndTheSameFiles() throws Exception {
        List<List<Map<String, String>>> edits = List.of(
                List.of(Map.of("oldText", "System.out.println(\"hello\");", "newText", "System.out.println(\"hi\");")),
                List.of(Map.of("oldText", "# Guide\n", "newText", "# The guide\n"),
                        Map.of("oldText", "Step two.", "newText", "Step two.\nStep three.")),
                List.of(Map.of("oldText", "third", "newText", "3rd")),
                List.of(Map.of("oldText", "line 20 TODO check\nline 21\n", "newText", "")));
        List<String> files = List.of("src/main/App.java", "docs/guide.md", "no-newline.txt", "notes.txt");
        for (int i = 0; i < edits.size(); i++) {
            String file = files.get(i);
            Map<String, Object> dry = args("path", "edits-q/" + file, "edits", edits.get(i), "dryRun", true);
            JsonNode myPreview = q("edit_file", dry);
            JsonNode theirPreview = r("edit_file", args("path", "edits-r/" + file, "edits", edits.get(i), "dryRun",
                    true));
            assertFalse(isError(myPreview), myPreview.toString());
            assertEquals(changes(text(theirPreview)), changes(text(myPreview)), file);
            assertEquals(Files.readString(tree.root.resolve("edits-r/" + file)),
                    Files.readString(tree.root.resolve("edits-q/" + file)), "a dry run writes nothing");
            JsonNode mine = q("edit_file", args("path", "edits-q/" + file, "edits", edits.get(i)));
            JsonNode theirs = r("edit_file", args("path", "edits-r/" + file, "edits", edits.get(i)));
            assertFalse(isError(mine), mine.toString());
            assertFalse(isError(theirs), theirs.toString());
            assertEquals(changes(text(theirs)), changes(text(mine)), file);
            assertEquals(Files.readString(tree.root.resolve("edits-r/" + file)),
                    Files.readString(tree.root.resolve("edits-q/" + file)), file);
        }
        Map<String, Object> missing = args("edits", List.of(Map.of("oldText", "not in the file", "newText", "x")));
        missing.put("path", "edits-q/README.md");
        assertTrue(isError(q("edit_file", missing)));
        missing.put("path", "edits-r/README.md");
        assertTrue(isError(r("edit_file", missing)));
        // where the reference replaces the first of several matches, Quiver refuses: the edit is ambiguous
        String before = Files.readString(tree.root.resolve("edits-q/notes.txt"));
        JsonNode ambiguous = q("edit_file", args("path", "edits-q/notes.txt", "edits",
                List.of(Map.of("oldText", "TODO check", "newText", "done"))));
        assertTrue(isError(ambiguous));
        assertTrue(text(ambiguous).contains("occurs 3 times"), text(ambiguous));
        assertEquals(before, Files.readString(tree.root.resolve("edits-q/notes.txt")));
    }

    /** The changed and context lines of a diff, without its header (which names the file). */
    private static List<String> changes(String diff) {
        return diff.lines().filter(l -> l.startsWith("+") && !l.startsWith("+++") || l.startsWith("-")
                && !l.startsWith("---") || l.startsWith(" ") || l.startsWith("@@")).toList();
    }

    @Test
    void writesDirectoriesAndMovesDoTheSame() throws Exception {
        for (String side : List.of("q", "r")) {
            boolean mine = side.equals("q");
            String dir = "edits-" + side + "/";
            JsonNode created = call(mine, "create_directory", args("path", dir + "made/deep/er"));
            assertFalse(isError(created), created.toString());
            assertFalse(isError(call(mine, "create_directory", args("path", dir + "made/deep/er"))));
            assertFalse(isError(call(mine, "write_file", args("path", dir + "made/new.txt", "content",
                    "new file ✓\nsecond line\n"))));
            assertFalse(isError(call(mine, "write_file", args("path", dir + "README.md", "content", "replaced\n"))));
            assertTrue(isError(call(mine, "write_file", args("path", dir + "missing/parent.txt", "content", "x"))));
            assertFalse(isError(call(mine, "move_file", args("source", dir + "made/new.txt", "destination",
                    dir + "made/deep/moved.txt"))));
            assertFalse(isError(call(mine, "move_file", args("source", dir + "logs", "destination",
                    dir + "made/logs"))));
            assertTrue(isError(call(mine, "move_file", args("source", dir + "data.json", "destination",
                    dir + "README.md"))), "never over an existing file");
            assertTrue(isError(call(mine, "create_directory", args("path", dir + "README.md/sub"))));
        }
        assertEquals(snapshot(tree.root.resolve("edits-r")), snapshot(tree.root.resolve("edits-q")));
        assertEquals("replaced\n", Files.readString(tree.root.resolve("edits-q/README.md")));
        assertEquals("{\n  \"name\": \"sample\",\n  \"size\": 3\n}\n", Files.readString(tree.root
                .resolve("edits-q/data.json")));
    }

    private static JsonNode call(boolean quiverSide, String tool, Map<String, ?> arguments) throws Exception {
        return quiverSide ? q(tool, arguments) : r(tool, arguments);
    }

    /** Every path under a directory with its content (files) or "dir". */
    private static Map<String, String> snapshot(Path dir) throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            Map<String, String> snapshot = new TreeMap<>();
            for (Path p : all.toList()) {
                snapshot.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "dir"
                        : new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.ISO_8859_1));
            }
            return snapshot;
        }
    }

    @Test
    void contentSearchFindsWhatIsOnDisk() throws Exception {
        for (List<Object> s : List.<List<Object>>of(List.of("TODO", "", false), List.of("todo", "*.java", true),
                List.of("^line [0-9]+0 ", "notes.txt", false), List.of("Step (one|two)", "docs/**", false),
                List.of("héllo|日本", "", false))) {
            String pattern = (String) s.get(0);
            String filePattern = (String) s.get(1);
            boolean ignoreCase = (Boolean) s.get(2);
            Map<String, Object> arguments = args("path", ".", "pattern", pattern, "ignoreCase", ignoreCase,
                    "excludePatterns", List.of("edits-*"));
            if (!filePattern.isEmpty()) {
                arguments.put("filePattern", filePattern);
            }
            JsonNode result = q("search_file_contents", arguments);
            assertFalse(isError(result), result.toString());
            Set<String> found = new HashSet<>();
            for (JsonNode match : FsTree.result(result).path("structuredContent").path("matches")) {
                found.add(match.path("path").asString() + ":" + match.path("line").asInt() + ":"
                        + match.path("text").asString());
            }
            assertEquals(grep(pattern, filePattern, ignoreCase), found, s.toString());
        }
        JsonNode context = q("search_file_contents", args("path", "notes.txt", "pattern", "line 20 ", "contextLines",
                1));
        Path notes = tree.root.resolve("notes.txt");
        assertEquals(notes + "-19- line 19\n" + notes + ":20: line 20 TODO check\n" + notes + "-21- line 21\n"
                + "[1 match in 1 file]", text(context));
        JsonNode slow = q("search_file_contents", args("path", "big.txt", "pattern", "(.*x){12}y"));
        assertTrue(isError(slow), "a pattern that backtracks for ever is stopped: " + slow);
        assertTrue(text(slow).contains("took longer than"), text(slow));
    }

    /**
     * A broad search with long context lines would return structured content far above the engine's output limit
     * (1 MiB), which fails the whole call: it stops within its own budget instead, a partial result that says so.
     */
    @Test
    void aBroadContentSearchStopsWithinTheOutputLimitRatherThanFailing() throws Exception {
        Path wide = Files.createDirectories(tree.root.resolve("wide"));
        try {
            String line = "wide " + "w".repeat(400) + "\n";
            for (int i = 0; i < 5; i++) {
                Files.writeString(wide.resolve("wide-" + i + ".txt"), line.repeat(300));
            }
            JsonNode result = q("search_file_contents", args("path", "wide", "pattern", "wide", "contextLines", 20));
            assertFalse(isError(result), firstText(result));
            JsonNode found = FsTree.result(result).path("structuredContent");
            assertTrue(found.path("truncated").asBoolean(), found.path("truncated").toString());
            assertTrue(found.path("matches").size() > 10, found.path("matches").size() + " matches");
            assertTrue(text(result).contains("stopped early: the output limit of 524288 bytes"),
                    text(result).substring(text(result).lastIndexOf('[')));
        } finally {
            try (Stream<Path> files = Files.list(wide)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(wide);
        }
    }

    /** The matching lines of the tree's text files (edits-* left out), as path:line:text. */
    private static Set<String> grep(String pattern, String filePattern, boolean ignoreCase) throws Exception {
        Pattern regex = Pattern.compile(pattern, ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        Set<String> found = new HashSet<>();
        try (Stream<Path> all = Files.walk(tree.root)) {
            for (Path file : all.filter(Files::isRegularFile).toList()) {
                String relative = tree.root.relativize(file).toString();
                if (relative.startsWith("edits-") || !matchesFilePattern(relative, file, filePattern)) {
                    continue;
                }
                byte[] bytes = Files.readAllBytes(file);
                if (new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf('\0') >= 0) {
                    continue;
                }
                List<String> lines = new String(bytes, java.nio.charset.StandardCharsets.UTF_8).lines().toList();
                for (int i = 0; i < lines.size(); i++) {
                    if (regex.matcher(lines.get(i)).find()) {
                        found.add(file + ":" + (i + 1) + ":" + lines.get(i));
                    }
                }
            }
        }
        return found;
    }

    private static boolean matchesFilePattern(String relative, Path file, String filePattern) {
        return switch (filePattern) {
            case "" -> true;
            case "*.java" -> file.getFileName().toString().endsWith(".java");
            case "notes.txt" -> file.getFileName().toString().equals("notes.txt");
            case "docs/**" -> relative.startsWith("docs/");
            default -> throw new IllegalArgumentException(filePattern);
        };
    }

    @Test
    void theClientsRootsNarrowTheConfiguredOnesOverStdioAsTheReferencesDo() throws Exception {
        Path home = Files.createDirectories(tree.base.resolve("stdio-home"));
        Files.createDirectories(home.resolve("etc"));
        Files.createDirectories(home.resolve("deploy"));
        Files.writeString(home.resolve("etc/io.quiver.tools.fs.cfg"), "roots = " + tree.root + "\n");
        Path docs = tree.root.resolve("docs");
        try (FsStdioPeer mine = FsStdioPeer.quiver(home, List.of(docs));
                FsStdioPeer theirs = FsStdioPeer.reference(tree.base.resolve("reference-roots.log"), List.of(docs),
                        tree.root)) {
            // the reference takes the client's roots once initialized, in the background: wait for it
            long deadline = System.nanoTime() + T.toNanos();
            while (!text(theirs.call("list_allowed_directories", Map.of())).contains(docs.toString())) {
                assertTrue(System.nanoTime() < deadline, "the reference took the client's roots: " + theirs.log());
                Thread.sleep(50);
            }
            List<String> myDirs = firstText(mine.call("list_allowed_directories", Map.of())).lines().skip(1)
                    .takeWhile(l -> !l.isBlank()).toList();
            assertEquals(List.of(docs.toString()), myDirs, mine.log());
            assertTrue(mine.rootsAsked() > 0, "Quiver asked the client for its roots");
            for (String path : List.of("guide.md", docs + "/api.md", "deep/er/est.md")) {
                JsonNode a = mine.call("read_text_file", args("path", path));
                JsonNode b = theirs.call("read_text_file", args("path", path));
                assertFalse(isError(a), path + ": " + a);
                assertEquals(text(b), text(a), path);
            }
            for (String path : List.of(tree.root + "/README.md", "../README.md", "../src/main/App.java")) {
                assertTrue(isError(theirs.call("read_text_file", args("path", path))), path);
                assertTrue(isError(mine.call("read_text_file", args("path", path))), "outside the client's root: "
                        + path);
            }
            assertTrue(isError(mine.call("write_file", args("path", "new.md", "content", "x"))),
                    "the configured root is read-only, whatever the client's roots say");
            assertFalse(Files.exists(docs.resolve("new.md")));
        }
    }
}
