package io.quiver.tools.fs.internal;

import static io.quiver.tools.fs.internal.Fixture.call;
import static io.quiver.tools.fs.internal.Fixture.leaks;
import static io.quiver.tools.fs.internal.Fixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every way out of a root is refused, for reading and writing, and nothing outside is read or changed. */
class ConfinementTest {

    @TempDir
    Path temp;
    Fixture f;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixture(temp);
    }

    /** Requested paths that must be refused, with a word the error must contain. */
    static Stream<Arguments> escapes() {
        return Stream.of(
                Arguments.of("../outside/canary.txt", "outside the allowed roots"),
                Arguments.of("sub/../../outside/canary.txt", "outside the allowed roots"),
                Arguments.of("ROOT/../outside/canary.txt", "outside the allowed roots"),
                Arguments.of("OUTSIDE/canary.txt", "outside the allowed roots"),
                Arguments.of("/etc/passwd", "outside the allowed roots"),
                Arguments.of("link-out", "symbolic link"),
                Arguments.of("abs-out", "symbolic link"),
                Arguments.of("dir-out/canary.txt", "symbolic link"),
                Arguments.of("loop1", "Too many levels of symbolic links"),
                Arguments.of("loop1/x", "Too many levels of symbolic links"),
                Arguments.of("%2e%2e/outside/canary.txt", "URL-encoded"),
                Arguments.of("..%2foutside%2fcanary.txt", "URL-encoded"),
                Arguments.of("%252e%252e/outside/canary.txt", "URL-encoded"),
                Arguments.of("..\\outside\\canary.txt", "Windows-style"),
                Arguments.of("C:\\Windows\\win.ini", "Windows-style"),
                Arguments.of("C:/outside/canary.txt", "Windows-style"),
                Arguments.of("\uFF0E\uFF0E/outside/canary.txt", "U+FF0E"),
                Arguments.of("..\u2215outside\u2215canary.txt", "U+2215"),
                Arguments.of("\u2025/outside/canary.txt", "U+2025"),
                Arguments.of("..\uFF0Foutside/canary.txt", "U+FF0F"),
                Arguments.of("a.txt\0../../outside/canary.txt", "NUL"),
                Arguments.of("sub/" + "x".repeat(300), "too long"),
                Arguments.of("a/".repeat(2100) + "b", "too long"),
                Arguments.of("file:///etc/passwd", "URI"));
    }

    private String resolve(String requested) {
        return requested.replace("ROOT", f.root.toString()).replace("OUTSIDE", f.outside.toString());
    }

    @ParameterizedTest(name = "read {0}")
    @MethodSource("escapes")
    void readingAnEscapeIsRefused(String requested, String reason) throws Exception {
        ToolResult result = call(new ReadTextFileTool(f.workspace),
                new ReadTextFileTool.Arguments(resolve(requested), Optional.empty(), Optional.empty()));
        assertTrue(result.isError(), () -> requested + ": " + text(result));
        assertTrue(text(result).contains(reason), () -> requested + ": " + text(result));
        assertFalse(leaks(result), text(result));
    }

    @ParameterizedTest(name = "write {0}")
    @MethodSource("escapes")
    void writingAnEscapeIsRefused(String requested, String reason) throws Exception {
        ToolResult result = call(new WriteFileTool(f.workspace),
                new WriteFileTool.Arguments(resolve(requested), "overwritten"));
        assertTrue(result.isError(), () -> requested + ": " + text(result));
        assertEquals(Fixture.CANARY_TEXT, f.canaryNow());
        try (Stream<Path> files = Files.list(f.outside)) {
            assertEquals(List.of(f.canary), files.toList(), "nothing new outside");
        }
    }

    @Test
    void pathsInsideAreRead() throws Exception {
        ReadTextFileTool read = new ReadTextFileTool(f.workspace);
        for (String path : List.of("a.txt", "./a.txt", "sub/../a.txt", f.root + "/a.txt", "link-in",
                f.root + "//sub/..//a.txt")) {
            ToolResult result = call(read, new ReadTextFileTool.Arguments(path, Optional.empty(), Optional.empty()));
            assertFalse(result.isError(), () -> path + ": " + text(result));
            assertEquals("alpha\nbeta\ngamma\n", text(result), path);
        }
    }

    @Test
    void aLinkInsideThatPointsInsideIsFollowedAndOneOutOfANestedLinkIsNot() throws Exception {
        Files.createSymbolicLink(f.root.resolve("sub/up"), Path.of(".."));
        Files.createSymbolicLink(f.root.resolve("sub/upup"), Path.of("../.."));
        ReadTextFileTool read = new ReadTextFileTool(f.workspace);
        assertFalse(call(read, new ReadTextFileTool.Arguments("sub/up/a.txt", Optional.empty(), Optional.empty()))
                .isError());
        ToolResult out = call(read, new ReadTextFileTool.Arguments("sub/upup/outside/canary.txt", Optional.empty(),
                Optional.empty()));
        assertTrue(out.isError());
        assertFalse(leaks(out));
    }

    @Test
    void listingsShowLinksWithoutFollowingThemOrTheirTargets() throws Exception {
        ToolResult listing = call(new ListDirectoryWithSizesTool(f.workspace),
                new ListDirectoryWithSizesTool.Arguments(".", Optional.empty()));
        assertFalse(listing.isError(), text(listing));
        assertFalse(text(listing).contains(f.outside.toString()), text(listing));
        ListDirectoryWithSizesTool.SizedListing sized = (ListDirectoryWithSizesTool.SizedListing) listing
                .structuredContent();
        ListDirectoryTool.Listed out = sized.entries().stream().filter(e -> e.name().equals("link-out")).findFirst()
                .orElseThrow();
        assertEquals("symlink", out.type());
        assertEquals("../outside/canary.txt".length(), out.size(), "the link's own size, not the canary's");

        ToolResult tree = call(new DirectoryTreeTool(f.workspace),
                new DirectoryTreeTool.Arguments(".", Optional.empty(), Optional.empty()));
        assertFalse(text(tree).contains("canary"), "dir-out is not walked into: " + text(tree));

        ToolResult found = call(new SearchFilesTool(f.workspace),
                new SearchFilesTool.Arguments(".", "**/canary*", Optional.empty()));
        assertEquals("No matches found", text(found));

        ToolResult grep = call(new SearchFileContentsTool(f.workspace), new SearchFileContentsTool.Arguments(".",
                "CANARY", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        assertFalse(leaks(grep), text(grep));
        assertTrue(text(grep).startsWith("No matches found"), text(grep));
    }

    @Test
    void theListedOrSearchedDirectoryMustBeInsideToo() throws Exception {
        assertTrue(call(new ListDirectoryTool(f.workspace), new PathArgument("dir-out")).isError());
        assertTrue(call(new SearchFilesTool(f.workspace), new SearchFilesTool.Arguments("dir-out", "*",
                Optional.empty())).isError());
        assertTrue(call(new DirectoryTreeTool(f.workspace), new DirectoryTreeTool.Arguments("..", Optional.empty(),
                Optional.empty())).isError());
        ToolResult grep = call(new SearchFileContentsTool(f.workspace), new SearchFileContentsTool.Arguments(
                "dir-out", ".", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        assertTrue(grep.isError());
        assertFalse(leaks(grep));
        assertTrue(call(new GetFileInfoTool(f.workspace), new PathArgument("link-out")).isError());
        assertTrue(call(new ReadMediaFileTool(f.workspace), new PathArgument("abs-out")).isError());
    }

    @Test
    void aHardLinkToAFileOutsideIsNeitherReadNorWrittenThrough() throws Exception {
        Path hard = Files.createLink(f.root.resolve("hard.txt"), f.canary);
        ToolResult read = call(new ReadTextFileTool(f.workspace),
                new ReadTextFileTool.Arguments("hard.txt", Optional.empty(), Optional.empty()));
        assertTrue(read.isError());
        assertTrue(text(read).contains("hard links"), text(read));
        assertFalse(leaks(read));
        ToolResult several = call(new ReadMultipleFilesTool(f.workspace),
                new ReadMultipleFilesTool.Arguments(List.of("hard.txt", "a.txt")));
        assertFalse(leaks(several));
        assertTrue(text(several).contains("alpha"));

        ToolResult write = call(new WriteFileTool(f.workspace), new WriteFileTool.Arguments("hard.txt", "changed"));
        assertTrue(write.isError());
        ToolResult edit = call(new EditFileTool(f.workspace), new EditFileTool.Arguments("hard.txt",
                List.of(new EditFileTool.Edit("CANARY", "changed")), Optional.empty()));
        assertTrue(edit.isError());
        assertFalse(leaks(edit));
        assertEquals(Fixture.CANARY_TEXT, f.canaryNow());
        assertEquals(Fixture.CANARY_TEXT, Files.readString(hard));

        ToolResult grep = call(new SearchFileContentsTool(f.workspace), new SearchFileContentsTool.Arguments(".",
                "CANARY", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        assertFalse(leaks(grep));
    }

    @Test
    void readingHardLinkedFilesCanBeAllowedButWritingThroughThemNever(@TempDir Path other) throws Exception {
        Fixture allowing = new Fixture(other, ":rw", Map.of("readHardLinks", "true"));
        Files.writeString(allowing.root.resolve("shared.txt"), "shared\n");
        Files.createLink(allowing.root.resolve("shared-2.txt"), allowing.root.resolve("shared.txt"));
        ToolResult read = call(new ReadTextFileTool(allowing.workspace),
                new ReadTextFileTool.Arguments("shared-2.txt", Optional.empty(), Optional.empty()));
        assertEquals("shared\n", text(read));
        assertTrue(call(new WriteFileTool(allowing.workspace), new WriteFileTool.Arguments("shared-2.txt", "x"))
                .isError());
        assertEquals("shared\n", Files.readString(allowing.root.resolve("shared.txt")));
    }

    @Test
    void writesThroughLinksOutAreRefusedAndNothingAppearsOutside() throws Exception {
        Files.createSymbolicLink(f.root.resolve("dangling-out"), f.outside.resolve("new.txt"));
        WriteFileTool write = new WriteFileTool(f.workspace);
        for (String path : List.of("dangling-out", "dir-out/new.txt", "link-out", "abs-out")) {
            ToolResult result = call(write, new WriteFileTool.Arguments(path, "x"));
            assertTrue(result.isError(), path);
        }
        assertTrue(call(new CreateDirectoryTool(f.workspace), new PathArgument("dir-out/made")).isError());
        assertTrue(call(new MoveFileTool(f.workspace), new MoveFileTool.Arguments("a.txt", "dir-out/a.txt"))
                .isError());
        assertTrue(call(new MoveFileTool(f.workspace), new MoveFileTool.Arguments("dir-out/canary.txt", "c.txt"))
                .isError());
        try (Stream<Path> files = Files.list(f.outside)) {
            assertEquals(List.of(f.canary), files.toList());
        }
        assertEquals(Fixture.CANARY_TEXT, f.canaryNow());
        assertTrue(Files.exists(f.root.resolve("a.txt")));
    }

    @Test
    void aLinkIsMovedAsItselfAndWritingToALinkInsideWritesItsTarget() throws Exception {
        ToolResult moved = call(new MoveFileTool(f.workspace), new MoveFileTool.Arguments("link-out", "moved-link"));
        assertFalse(moved.isError(), text(moved));
        assertTrue(Files.isSymbolicLink(f.root.resolve("moved-link")));
        assertEquals(Fixture.CANARY_TEXT, f.canaryNow());

        ToolResult written = call(new WriteFileTool(f.workspace), new WriteFileTool.Arguments("link-in", "new\n"));
        assertFalse(written.isError(), text(written));
        assertEquals("new\n", Files.readString(f.root.resolve("a.txt")));
        assertTrue(Files.isSymbolicLink(f.root.resolve("link-in")), "the link stays a link");
    }

    @Test
    void aReadOnlyRootRefusesEveryWrite(@TempDir Path other) throws Exception {
        Fixture readOnly = new Fixture(other, "", Map.of());
        Path a = readOnly.root.resolve("a.txt");
        String before = Files.readString(a);
        assertTrue(text(call(new WriteFileTool(readOnly.workspace), new WriteFileTool.Arguments("a.txt", "x")))
                .contains("read-only root"));
        assertTrue(call(new WriteFileTool(readOnly.workspace), new WriteFileTool.Arguments("new.txt", "x")).isError());
        assertTrue(call(new EditFileTool(readOnly.workspace), new EditFileTool.Arguments("a.txt",
                List.of(new EditFileTool.Edit("alpha", "x")), Optional.of(false))).isError());
        assertTrue(call(new CreateDirectoryTool(readOnly.workspace), new PathArgument("made")).isError());
        assertTrue(call(new MoveFileTool(readOnly.workspace), new MoveFileTool.Arguments("a.txt", "b.txt")).isError());
        ToolResult preview = call(new EditFileTool(readOnly.workspace), new EditFileTool.Arguments("a.txt",
                List.of(new EditFileTool.Edit("alpha", "x")), Optional.of(true)));
        assertFalse(preview.isError(), "a dry run only reads: " + text(preview));
        assertEquals(before, Files.readString(a));
        assertFalse(Files.exists(readOnly.root.resolve("new.txt")));
        assertFalse(Files.exists(readOnly.root.resolve("made")));
    }

    /**
     * With no configuration at all (what a plain {@code quiver run} has) the tools reach the working directory
     * only, and write nothing there.
     */
    @Test
    void withoutConfigurationTheWorkingDirectoryIsTheOnlyRootAndItIsReadOnly(@TempDir Path other) throws Exception {
        Path base = other.toRealPath();
        Path wd = Files.createDirectories(base.resolve("work"));
        Path home = Files.createDirectories(base.resolve("home"));
        Files.writeString(wd.resolve("a.txt"), "alpha\n");
        Files.createDirectories(wd.resolve("sub"));
        Files.writeString(base.resolve("beside.txt"), "beside\n");
        Workspace workspace = new Workspace(Map.of(), wd, home);

        ToolResult listed = call(new ListAllowedDirectoriesTool(workspace), new ListAllowedDirectoriesTool.Arguments());
        assertEquals("Allowed directories:\n" + wd + "\n\nAll are read-only.", text(listed));
        assertEquals(new ListAllowedDirectoriesTool.Allowed(List.of(
                new ListAllowedDirectoriesTool.AllowedDirectory(wd.toString(), false)), false),
                listed.structuredContent());
        assertEquals("alpha\n", text(call(new ReadTextFileTool(workspace), new ReadTextFileTool.Arguments("a.txt",
                Optional.empty(), Optional.empty()))));
        for (String outside : List.of("../beside.txt", base + "/beside.txt", "~/x.txt")) {
            ToolResult refused = call(new ReadTextFileTool(workspace), new ReadTextFileTool.Arguments(outside,
                    Optional.empty(), Optional.empty()));
            assertTrue(text(refused).contains("outside the allowed roots"), outside + ": " + text(refused));
        }

        String readOnly = "is in a read-only root (" + wd + ")";
        List<ToolResult> writes = List.of(
                call(new WriteFileTool(workspace), new WriteFileTool.Arguments("a.txt", "x")),
                call(new WriteFileTool(workspace), new WriteFileTool.Arguments("new.txt", "x")),
                call(new EditFileTool(workspace), new EditFileTool.Arguments("a.txt",
                        List.of(new EditFileTool.Edit("alpha", "x")), Optional.of(false))),
                call(new CreateDirectoryTool(workspace), new PathArgument("made")),
                call(new CreateDirectoryTool(workspace), new PathArgument("sub/made")),
                call(new MoveFileTool(workspace), new MoveFileTool.Arguments("a.txt", "b.txt")),
                call(new MoveFileTool(workspace), new MoveFileTool.Arguments("sub", "moved")));
        for (ToolResult write : writes) {
            assertTrue(write.isError(), text(write));
            assertTrue(text(write).startsWith("Access denied: ") && text(write).contains(readOnly), text(write));
        }
        try (Stream<Path> files = Files.walk(wd)) {
            assertEquals(List.of(wd, wd.resolve("a.txt"), wd.resolve("sub")), files.sorted().toList(),
                    "nothing was written");
        }
        assertEquals("alpha\n", Files.readString(wd.resolve("a.txt")));
    }

    @Test
    void aWritableRootInsideAReadOnlyOneIsWritableAndOnlyIt(@TempDir Path other) throws Exception {
        Path base = other.toRealPath();
        Files.createDirectories(base.resolve("project/build"));
        Workspace workspace = new Workspace(Map.of("roots", base.resolve("project") + ", " + base.resolve(
                "project/build") + ":rw"), base, base);
        assertTrue(call(new WriteFileTool(workspace), new WriteFileTool.Arguments("project/x.txt", "x")).isError());
        assertFalse(call(new WriteFileTool(workspace), new WriteFileTool.Arguments(base + "/project/build/x.txt",
                "x")).isError());
        assertTrue(Files.exists(base.resolve("project/build/x.txt")));
    }

    @Test
    void aRootConfiguredThroughALinkMayBeNamedEitherWay(@TempDir Path other) throws Exception {
        Path base = other.toRealPath();
        Path real = Files.createDirectories(base.resolve("real-root"));
        Files.writeString(real.resolve("f.txt"), "found\n");
        Path alias = Files.createSymbolicLink(base.resolve("alias"), real);
        Files.createSymbolicLink(real.resolve("via-alias"), alias.resolve("f.txt"));
        Workspace workspace = new Workspace(Map.of("roots", alias.toString()), base, base);
        ReadTextFileTool read = new ReadTextFileTool(workspace);
        for (String path : List.of(alias + "/f.txt", real + "/f.txt", "f.txt", "via-alias")) {
            ToolResult result = call(read, new ReadTextFileTool.Arguments(path, Optional.empty(), Optional.empty()));
            assertEquals("found\n", text(result), path);
        }
        ToolResult listed = call(new ListAllowedDirectoriesTool(workspace), new ListAllowedDirectoriesTool.Arguments());
        assertTrue(text(listed).contains(real.toString()), text(listed));
    }

    @Test
    void createDirectoryMakesParentsInsideAndLeavesNoTemporaryBehind() throws Exception {
        ToolResult made = call(new CreateDirectoryTool(f.workspace), new PathArgument("new/deep/er"));
        assertFalse(made.isError(), text(made));
        assertTrue(Files.isDirectory(f.root.resolve("new/deep/er")));
        assertTrue(((CreateDirectoryTool.Created) made.structuredContent()).created());
        ToolResult again = call(new CreateDirectoryTool(f.workspace), new PathArgument("new/deep/er"));
        assertFalse(((CreateDirectoryTool.Created) again.structuredContent()).created());
        assertTrue(call(new CreateDirectoryTool(f.workspace), new PathArgument("a.txt/x")).isError());
        try (Stream<Path> files = Files.list(f.root)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith(".quiver")));
        }
    }

    @Test
    void theAllowedRootsAreListedWithTheirWriteFlag() throws Exception {
        ToolResult result = call(new ListAllowedDirectoriesTool(f.workspace), new ListAllowedDirectoriesTool.Arguments());
        assertEquals("Allowed directories:\n" + f.root + "\n\nAll are writable.", text(result));
    }

    @Test
    void aRootThatDoesNotExistIsAProblemAndNoRootMeansAnError(@TempDir Path other) throws Exception {
        Path base = other.toRealPath();
        Workspace workspace = new Workspace(Map.of("roots", base.resolve("missing").toString()), base, base);
        assertEquals(1, workspace.problems().size(), workspace.problems().toString());
        assertTrue(workspace.problems().get(0).reason().contains("does not exist"));
        ToolResult result = call(new ListDirectoryTool(workspace), new PathArgument("."));
        assertTrue(result.isError());
        assertTrue(text(result).contains("No root is configured"), text(result));
        Files.createDirectories(base.resolve("missing"));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (call(new ListDirectoryTool(workspace), new PathArgument(".")).isError()) {
            assertTrue(System.nanoTime() < deadline, "the root is found once it exists");
            Thread.sleep(20);
        }
        assertTrue(workspace.problems().isEmpty());
    }

    @Test
    void aBadSettingKeepsItsDefaultAndIsAProblem(@TempDir Path other) throws Exception {
        Path base = other.toRealPath();
        Workspace workspace = new Workspace(Map.of("roots", base.toString(), "maxResults", "lots"), base, base);
        assertEquals(1, workspace.problems().size());
        assertTrue(workspace.problems().get(0).reason().contains("maxResults = lots"));
        assertEquals(1000, workspace.settings().maxResults());
    }
}
