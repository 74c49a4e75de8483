package io.quiver.itests.e2e;

import static io.quiver.itests.e2e.FsTree.args;
import static io.quiver.itests.e2e.FsTree.isError;
import static io.quiver.itests.e2e.FsTree.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every way out of a root, tried with every file tool of Quiver as users run it ({@code quiver.jar run}, the
 * default tools, a writable root), over HTTP: {@code ..}, absolute paths, URL-encoded and Unicode lookalike
 * forms, Windows separators, NUL bytes, overlong paths, links out (to a file, to a directory, absolute, chained,
 * dangling, in the middle of a path), link loops, a hard link, and a directory swapped for a link out while
 * calls run. A canary file outside the root must keep its content and time, and its text must be in no answer
 * and no log line. Nothing beside the root may change, checked on disk: the root's parent (where {@code ..} and
 * {@code ../made} would land) and everything under it but the root, the server's {@code ~} among them (it runs
 * with a home of its own there, so {@code ~/made} would land there too). The same table goes to the reference
 * server: whatever it refuses, Quiver refuses too.
 */
class FsEscapesIT {

    private static final Duration T = Duration.ofSeconds(20);

    private static FsTree tree;
    private static QuiverServer server;
    private static McpClient quiver;
    private static FsStdioPeer reference;
    /** Everything outside the root, as {@link FsTree#outsideRootState} shows it before the first call. */
    private static String outsideBefore;
    /** The names the table makes (or moves to) beside an escape, and whether each was in the real home before. */
    private static final List<String> MADE = List.of("made", "moved-in");
    private static Map<String, Boolean> inRealHomeBefore;

    /**
     * One way out.
     *
     * @param linkInRoot the last name is a link (or hard link) that lies inside the root: moving it is a rename
     *     inside the root, not an escape
     * @param hardLink a hard link: its metadata (get_file_info) may be shown, its content never
     */
    record Case(String name, String path, boolean linkInRoot, boolean hardLink) {
        static Case of(String name, String path) {
            return new Case(name, path, false, false);
        }

        static Case link(String name, String path) {
            return new Case(name, path, true, false);
        }
    }

    private static List<Case> cases() {
        String outside = tree.outside.toString();
        String root = tree.root.toString();
        return List.of(
                Case.of("parent, relative", "../outside/canary.txt"),
                Case.of("parent, after a directory", "docs/../../outside/canary.txt"),
                Case.of("parent itself", ".."),
                Case.of("absolute, outside", outside + "/canary.txt"),
                Case.of("absolute, through the root and up", root + "/../outside/canary.txt"),
                Case.of("absolute, system file", "/etc/passwd"),
                Case.of("home (~)", "~"),
                Case.of("URL-encoded dots", "%2e%2e/outside/canary.txt"),
                Case.of("URL-encoded slash", "..%2foutside%2fcanary.txt"),
                Case.of("double URL-encoded", "%252e%252e%252foutside%252fcanary.txt"),
                Case.of("overlong UTF-8 dots", "%c0%ae%c0%ae/outside/canary.txt"),
                Case.of("fullwidth full stops", "\uFF0E\uFF0E/outside/canary.txt"),
                Case.of("one dot leaders", "\u2024\u2024/outside/canary.txt"),
                Case.of("two dot leader", "\u2025/outside/canary.txt"),
                Case.of("division slash", "..\u2215outside\u2215canary.txt"),
                Case.of("fullwidth solidus", "..\uFF0Foutside\uFF0Fcanary.txt"),
                Case.of("Windows backslashes", "..\\outside\\canary.txt"),
                Case.of("Windows drive", "C:\\outside\\canary.txt"),
                Case.of("UNC path", "\\\\server\\share\\canary.txt"),
                Case.of("NUL byte", "docs/guide.md\u0000/../../outside/canary.txt"),
                Case.of("long path", "docs/" + "a/".repeat(3000) + "x"),
                Case.of("long name", "x".repeat(300)),
                Case.of("long climb", "docs/" + "../".repeat(2000) + "outside/canary.txt"),
                Case.of("file: URI", "file://" + outside + "/canary.txt"),
                Case.link("link to a file outside", "link-out"),
                Case.link("absolute link outside", "abs-link"),
                Case.of("link to a directory outside", "dir-link/canary.txt"),
                Case.link("chain of links out", "chain1"),
                Case.link("link loop", "loop1"),
                Case.of("link to itself, in the middle", "self/x"),
                Case.of("link up, in the middle", "docs/up/outside/canary.txt"),
                Case.link("dangling link out", "dangling-out"),
                new Case("hard link to the canary", "hard.txt", true, true));
    }

    @BeforeAll
    static void start() throws Exception {
        tree = FsTree.create("escapes");
        Path root = tree.root;
        Files.createSymbolicLink(root.resolve("link-out"), Path.of("../outside/canary.txt"));
        Files.createSymbolicLink(root.resolve("abs-link"), tree.canary);
        Files.createSymbolicLink(root.resolve("dir-link"), Path.of("../outside"));
        Files.createSymbolicLink(root.resolve("chain1"), Path.of("chain2"));
        Files.createSymbolicLink(root.resolve("chain2"), Path.of("docs/chain3"));
        Files.createSymbolicLink(root.resolve("docs/chain3"), Path.of("../../outside/canary.txt"));
        Files.createSymbolicLink(root.resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(root.resolve("loop2"), Path.of("loop1"));
        Files.createSymbolicLink(root.resolve("self"), Path.of("self"));
        Files.createSymbolicLink(root.resolve("docs/up"), Path.of("../.."));
        Files.createSymbolicLink(root.resolve("dangling-out"), Path.of("../outside/created-through-a-link.txt"));
        Files.createLink(root.resolve("hard.txt"), tree.canary);
        Files.writeString(root.resolve("victim.txt"), "victim\n");
        Path userHome = Files.createDirectories(tree.base.resolve("home"));
        Files.writeString(userHome.resolve(".profile"), "# the server's home\n");
        inRealHomeBefore = inRealHome();
        server = QuiverServer.startWithUserHome("fs-escapes", "core,http,tools-default", home -> Files.writeString(
                home.resolve("etc").resolve("io.quiver.tools.fs.cfg"), "roots = " + tree.root + ":rw, " + home + ":rw\n"), userHome);
        quiver = McpClient.connect(server.url(), "fs-escapes-it", T);
        // (its log goes with the server's, not beside the root: nothing may appear there)
        reference = FsStdioPeer.reference(server.home().resolve("reference.log"), tree.root);
        outsideBefore = tree.outsideRootState();
    }

    /** Whether each name the table makes is in the real home of the user running the tests. */
    private static Map<String, Boolean> inRealHome() {
        Path home = Path.of(System.getProperty("user.home"));
        Map<String, Boolean> there = new java.util.LinkedHashMap<>();
        for (String name : MADE) {
            there.put(name, Files.exists(home.resolve(name), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        }
        return there;
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
            assertFalse(server.log().contains(FsTree.CANARY), "the canary is in no log line either");
        }
    }

    /** Fails when an answer shows the canary's text. */
    private static JsonNode checked(JsonNode response, String what) {
        assertFalse(response.toString().contains(FsTree.CANARY), what + " showed the canary: " + response);
        return response;
    }

    @Test
    void everyWayOutIsRefusedByEveryToolAndWhatTheReferenceRefusesQuiverRefuses() throws Exception {
        assertTrue(cases().size() >= 20, "the table has at least 20 ways out");
        List<String> table = new ArrayList<>();
        for (Case c : cases()) {
            String p = c.path();
            List<String> refusedBy = new ArrayList<>();
            List<String> answeredBy = new ArrayList<>();
            Map<String, Map<String, Object>> mustFail = new java.util.LinkedHashMap<>();
            mustFail.put("read_text_file", args("path", p));
            mustFail.put("read_file", args("path", p, "head", 1));
            mustFail.put("read_media_file", args("path", p));
            mustFail.put("write_file", args("path", p, "content", "pwned"));
            mustFail.put("edit_file", args("path", p, "edits", List.of(Map.of("oldText", "must-never", "newText",
                    "pwned"))));
            mustFail.put("edit_file (dry run)", args("path", p, "edits", List.of(Map.of("oldText", "must-never",
                    "newText", "pwned")), "dryRun", true));
            mustFail.put("list_directory", args("path", p));
            mustFail.put("list_directory_with_sizes", args("path", p));
            mustFail.put("directory_tree", args("path", p));
            mustFail.put("search_files", args("path", p, "pattern", "**"));
            mustFail.put("create_directory", args("path", p));
            mustFail.put("create_directory (below)", args("path", p + "/made"));
            mustFail.put("move_file (to it)", args("source", "victim.txt", "destination", p));
            if (!c.linkInRoot()) {
                mustFail.put("move_file (from it)", args("source", p, "destination", "moved-in"));
            }
            if (!c.hardLink()) {
                mustFail.put("get_file_info", args("path", p));
                mustFail.put("search_file_contents", args("path", p, "pattern", "."));
            }
            for (Map.Entry<String, Map<String, Object>> e : mustFail.entrySet()) {
                String tool = e.getKey().replaceAll(" \\(.*\\)", "");
                JsonNode response = checked(quiver.callTool(tool, e.getValue()), c.name() + " / " + e.getKey());
                if (isError(response)) {
                    refusedBy.add(e.getKey());
                } else {
                    answeredBy.add(e.getKey() + ": " + text(response));
                }
            }
            JsonNode several = checked(quiver.callTool("read_multiple_files", args("paths", List.of(p))),
                    c.name() + " / read_multiple_files");
            assertTrue(text(several).contains(": Error - "), c.name() + ": " + several);
            JsonNode grep = checked(quiver.callTool("search_file_contents", args("path", ".", "pattern",
                    "must-never")), c.name() + " / search_file_contents of the root");
            assertTrue(text(grep).startsWith("No matches found"), text(grep));
            assertTrue(answeredBy.isEmpty(), c.name() + " (" + p.length() + " chars) was answered by " + answeredBy);

            JsonNode theirs = reference.call("read_text_file", args("path", p));
            boolean referenceRefuses = !theirs.has("result") || theirs.path("result").path("isError").asBoolean(false);
            JsonNode mine = quiver.callTool("read_text_file", args("path", p));
            if (referenceRefuses) {
                assertTrue(isError(mine), c.name() + ": the reference refuses it, so does Quiver");
            }
            String why = text(mine).replace('\n', ' ');
            table.add(String.format("%-36s quiver: refused by %2d tools (%s)  reference: %s", c.name(),
                    refusedBy.size(), why.length() > 110 ? why.substring(0, 110) + "..." : why,
                    referenceRefuses ? "refused" : "READ IT"));
            assertEquals(outsideBefore, tree.outsideRootState(), "nothing beside the root changed after " + c.name());
        }
        assertTrue(Files.exists(tree.root.resolve("victim.txt")), "the file moved around is still in place");
        assertFalse(Files.exists(tree.root.resolve("moved-in")));
        assertEquals(FsTree.CANARY + "\n", Files.readString(tree.canary));
        assertEquals(inRealHomeBefore, inRealHome(), "nothing the table makes appeared in the real home either");
        System.out.println("FsEscapesIT escape table:\n" + String.join("\n", table));
    }

    /**
     * The server's home is a writable root too (as the working directory is by default, read-only): its own folders
     * in it (etc/ with the roots line, deploy/, the framework storage, the audit trail) stay out of reach.
     */
    @Test
    void theServersOwnFoldersAreOutOfReachThoughARootHoldsThem() throws Exception {
        Path home = server.home();
        quiver.callTool("list_allowed_directories", Map.of()); // a call, so the audit trail has a line
        for (String path : List.of(home + "/etc/io.quiver.tools.fs.cfg", home + "/audit/calls.jsonl", home + "/data",
                home + "/deploy")) {
            JsonNode read = quiver.callTool(path.endsWith("data") || path.endsWith("deploy") ? "list_directory"
                    : "read_text_file", args("path", path));
            assertTrue(isError(read) && text(read).contains("never reach"), path + ": " + read);
        }
        JsonNode grep = quiver.callTool("search_file_contents", args("path", home.toString(), "pattern", "roots =|"
                + "\"list_allowed_directories\"")); // the roots line of etc/, the tool's name as the audit line quotes it
        assertTrue(text(grep).startsWith("No matches found"), "nothing of etc/ or audit/ searched: " + text(grep));
        JsonNode drop = quiver.callTool("write_file", args("path", home + "/deploy/dropped.jar", "content", "x"));
        assertTrue(isError(drop), drop.toString());
        JsonNode move = quiver.callTool("move_file", args("source", home + "/etc", "destination", home + "/moved-etc"));
        assertTrue(isError(move), move.toString());
        assertFalse(Files.exists(home.resolve("deploy/dropped.jar")), "nothing dropped into deploy/");
        assertTrue(Files.exists(home.resolve("etc/io.quiver.tools.fs.cfg")) && !Files.exists(home.resolve("moved-etc")));
    }

    @Test
    void aDirectorySwappedForALinkOutWhileCallsRunNeverLeadsOutside() throws Exception {
        Path swap = tree.root.resolve("swap");
        Path held = tree.root.resolve("swap-held");
        Path link = tree.root.resolve("swap-link");
        Files.createDirectories(swap);
        Files.writeString(swap.resolve("canary.txt"), "inside\n");
        Files.createSymbolicLink(link, tree.outside);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong swaps = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread swapper = new Thread(() -> {
            try {
                while (running.get()) {
                    Files.move(swap, held, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(link, swap, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(swap, link, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(held, swap, StandardCopyOption.ATOMIC_MOVE);
                    swaps.incrementAndGet();
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "fs-escapes-swapper");
        int inside = 0;
        int refused = 0;
        int calls = 0;
        swapper.start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (calls < 400 || inside < 5 || refused < 5) {
                assertEquals(null, failure.get(), "the swapper runs");
                assertTrue(System.nanoTime() < deadline, "both outcomes seen within 60 s: " + inside + " inside, "
                        + refused + " refused, " + swaps.get() + " swaps");
                JsonNode read = checked(quiver.callTool("read_text_file", args("path", "swap/canary.txt")), "read");
                if (isError(read)) {
                    refused++;
                } else {
                    assertEquals("inside\n", text(read));
                    inside++;
                }
                checked(quiver.callTool("write_file", args("path", "swap/written.txt", "content", "w")), "write");
                checked(quiver.callTool("list_directory", args("path", "swap")), "list");
                checked(quiver.callTool("search_file_contents", args("path", "swap", "pattern", "must-never")),
                        "search");
                checked(quiver.callTool("edit_file", args("path", "swap/canary.txt", "edits",
                        List.of(Map.of("oldText", "must-never", "newText", "x")))), "edit");
                // (no create_directory here: while the swapper has the name away, mkdir -p would make it anew)
                calls += 5;
            }
        } finally {
            running.set(false);
            swapper.join();
        }
        assertEquals(null, failure.get());
        assertEquals(outsideBefore, tree.outsideRootState(), "nothing outside changed or appeared");
        System.out.println("FsEscapesIT swap race: " + calls + " calls, " + inside + " reads inside, " + refused
                + " refused, " + swaps.get() + " swaps, nothing outside touched");
    }

    @Test
    void linksRetargetedBetweenInsideAndOutsideWhileCallsRunNeverLeadOutside() throws Exception {
        // flip: a link to a file, inside or the canary; dflip: a link to a directory, inside or outside
        Path flip = tree.root.resolve("flip");
        Path dflip = tree.root.resolve("dflip");
        Files.createDirectories(tree.root.resolve("docs/target"));
        Files.createSymbolicLink(flip, Path.of("docs/guide.md"));
        Files.createSymbolicLink(dflip, Path.of("docs/target"));
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread flipper = new Thread(() -> {
            try {
                Path next = tree.root.resolve("flip.next");
                Path dnext = tree.root.resolve("dflip.next");
                boolean out = false;
                while (running.get()) {
                    Files.deleteIfExists(next);
                    Files.createSymbolicLink(next, out ? Path.of("docs/guide.md") : tree.canary);
                    Files.move(next, flip, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    Files.deleteIfExists(dnext);
                    Files.createSymbolicLink(dnext, out ? Path.of("docs/target") : tree.outside);
                    Files.move(dnext, dflip, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    out = !out;
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "fs-escapes-flipper");
        int inside = 0;
        int refused = 0;
        int made = 0;
        flipper.start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            // the flipper's two states are not seen equally often (it runs when this thread waits): 300 rounds,
            // and on until each was seen
            for (int i = 0; i < 300 || inside < 1 || refused < 1; i++) {
                assertEquals(null, failure.get(), "the flipper runs");
                assertTrue(System.nanoTime() < deadline, inside + " inside, " + refused + " refused");
                JsonNode read = checked(quiver.callTool("read_text_file", args("path", "flip")), "read");
                if (isError(read)) {
                    refused++;
                } else {
                    assertEquals(Files.readString(tree.root.resolve("docs/guide.md")), text(read));
                    inside++;
                }
                checked(quiver.callTool("write_file", args("path", "flip", "content", "# Guide " + i + "\n")),
                        "write");
                checked(quiver.callTool("write_file", args("path", "dflip/w.txt", "content", "w")), "write below");
                if (!isError(checked(quiver.callTool("create_directory", args("path", "dflip/made-" + i)), "mkdir"))) {
                    made++;
                }
                checked(quiver.callTool("list_directory", args("path", "dflip")), "list");
            }
        } finally {
            running.set(false);
            flipper.join();
        }
        assertEquals(null, failure.get());
        assertEquals(outsideBefore, tree.outsideRootState(), "nothing outside changed or appeared");
        try (java.util.stream.Stream<Path> inTarget = Files.list(tree.root.resolve("docs/target"))) {
            assertEquals(made, inTarget.filter(p -> p.getFileName().toString().startsWith("made-")).count(),
                    "every directory made is inside");
        }
        System.out.println("FsEscapesIT link flips: " + inside + " reads inside, " + refused + " refused, " + made
                + " directories made inside");
    }
}
