package io.quiver.itests.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * The generated trees the file tool tests run on, and reading results: a project-like tree (code, docs, hidden
 * files, an empty directory, CRLF, no final newline, Unicode names, a large file, an image, a sound) in
 * {@code root}, and a canary file outside it whose text must never show.
 */
final class FsTree {

    /** The canary's text: in no result, ever. */
    static final String CANARY = "CANARY-b51f0e-must-never-be-shown";

    final Path base;
    final Path root;
    final Path outside;
    final Path canary;

    private FsTree(Path base) throws IOException {
        this.base = base;
        this.root = Files.createDirectories(base.resolve("root"));
        this.outside = Files.createDirectories(base.resolve("outside"));
        this.canary = Files.writeString(outside.resolve("canary.txt"), CANARY + "\n");
        Files.setLastModifiedTime(canary, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
    }

    /** A fresh tree under {@code target/fs-it}. */
    static FsTree create(String name) throws IOException {
        Path base = Files.createDirectories(Path.of("target", "fs-it", name + "-" + System.nanoTime()))
                .toAbsolutePath().toRealPath();
        FsTree tree = new FsTree(base);
        tree.project(tree.root);
        return tree;
    }

    /** Writes the project files under a directory. */
    void project(Path dir) throws IOException {
        write(dir.resolve("README.md"), "# Sample project\n\nIt has code, docs and data.\nTODO: more docs\n");
        StringBuilder notes = new StringBuilder();
        for (int i = 1; i <= 40; i++) {
            notes.append("line ").append(i).append(i % 10 == 0 ? " TODO check" : "").append('\n');
        }
        write(dir.resolve("notes.txt"), notes.toString());
        write(dir.resolve("no-newline.txt"), "first\nsecond\nthird");
        write(dir.resolve("crlf.txt"), "one\r\ntwo\r\nthree\r\n");
        write(dir.resolve("empty.txt"), "");
        write(dir.resolve("unicode-é✓.txt"), "héllo wörld ✓ 日本語\n");
        write(dir.resolve("data.json"), "{\n  \"name\": \"sample\",\n  \"size\": 3\n}\n");
        write(dir.resolve(".gitignore"), "target/\n*.log\n");
        write(dir.resolve(".hidden/config"), "key=value\n");
        write(dir.resolve("src/main/App.java"), "package app;\n\npublic class App {\n    public static void main("
                + "String[] args) {\n        System.out.println(\"hello\");\n    }\n}\n");
        write(dir.resolve("src/main/Util.java"), "package app;\n\nfinal class Util {\n    // TODO: helpers\n}\n");
        write(dir.resolve("src/test/AppTest.java"), "package app;\n\nclass AppTest {\n}\n");
        write(dir.resolve("docs/guide.md"), "# Guide\n\nStep one.\nStep two.\n");
        write(dir.resolve("docs/api.md"), "# API\n\nNothing yet.\n");
        write(dir.resolve("docs/deep/er/est.md"), "deepest\n");
        write(dir.resolve("logs/app.log"), "started\nstopped\n");
        Files.createDirectories(dir.resolve("empty-dir"));
        StringBuilder big = new StringBuilder();
        for (int i = 1; i <= 3000; i++) {
            big.append("row ").append(i).append(": ").append("x".repeat(i % 50)).append('\n');
        }
        write(dir.resolve("big.txt"), big.toString());
        Files.write(dir.resolve("pixel.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0,
                13, 'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, (byte) 0xc4, (byte) 0x89});
        Files.write(dir.resolve("beep.wav"), new byte[] {'R', 'I', 'F', 'F', 4, 0, 0, 0, 'W', 'A', 'V', 'E'});
        Files.write(dir.resolve("blob.bin"), new byte[] {0, 1, 2, 3, (byte) 0xff});
    }

    static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /**
     * Every file, directory and link under {@code base} but the root and what is in it: the canary's folder, the
     * root's parent itself (where {@code ..} and {@code ../made} land), a home given to the server, anything an
     * escape might make beside the root. Each with its type, size and modification time (a directory's changes when
     * a name in it is made or removed), a file's content hash and a link's target: what must not change.
     */
    String outsideRootState() throws IOException {
        List<String> lines = new ArrayList<>();
        Files.walkFileTree(base, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
                if (dir.equals(root)) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                lines.add(line(dir, attributes, "dir"));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                lines.add(line(file, attributes, attributes.isSymbolicLink() ? "link -> " + Files.readSymbolicLink(file)
                        : attributes.isRegularFile() ? "file " + Arrays.hashCode(Files.readAllBytes(file)) : "other"));
                return FileVisitResult.CONTINUE;
            }
        });
        lines.sort(null);
        return String.join("\n", lines);
    }

    private String line(Path p, BasicFileAttributes attributes, String what) {
        return "/" + base.relativize(p) + " " + what + " " + attributes.size() + " " + attributes.lastModifiedTime();
    }

    // ----------------------------------------------------------------- reading results

    /** The result of a JSON-RPC response to {@code tools/call} (a protocol error fails). */
    static JsonNode result(JsonNode response) {
        if (!response.has("result")) {
            throw new AssertionError("a protocol error, not a tool result: " + response);
        }
        return response.get("result");
    }

    static boolean isError(JsonNode response) {
        return result(response).path("isError").asBoolean(false);
    }

    /** The text blocks of a result, joined by newlines. */
    static String text(JsonNode response) {
        List<String> texts = new ArrayList<>();
        for (JsonNode block : result(response).path("content")) {
            if ("text".equals(block.path("type").asString())) {
                texts.add(block.path("text").asString());
            }
        }
        return String.join("\n", texts);
    }

    /** The first text block of a result (Quiver adds notes as further blocks). */
    static String firstText(JsonNode response) {
        return result(response).path("content").path(0).path("text").asString("");
    }

    /** Lines of a text, without empty ones, sorted: for content that is the same in any order. */
    static List<String> sortedLines(String text) {
        return text.lines().filter(l -> !l.isBlank()).sorted().collect(Collectors.toList());
    }

    static Map<String, Object> args(Object... keysAndValues) {
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
