package io.quiver.tools.fs.internal;

import static io.quiver.tools.fs.internal.Fixture.call;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's own folders stay out of reach of the file tools even when a root holds them, as a plain
 * {@code ./quiver run} does: its working directory is the default root, and {@code etc/} (secrets, grants, keys),
 * {@code deploy/} (a bundle dropped there runs in the server) and {@code audit/} (other callers' calls) are in it.
 * Each secret's text would be in a result that leaked it.
 */
class ServerFoldersTest {

    private static final String SECRET = "hmacSecret = SECRET-5d1e-never-shown";
    private static final String AUDITED = "AUDITED-0b7c-never-shown";

    private Path wd;
    private Workspace workspace;

    @BeforeEach
    void server(@TempDir Path temp) throws Exception {
        wd = temp.toRealPath();
        Files.createDirectories(wd.resolve("etc"));
        Files.writeString(wd.resolve("etc/io.quiver.auth.jwt.cfg"), SECRET + "\n");
        Files.createDirectories(wd.resolve("deploy"));
        Files.createDirectories(wd.resolve("audit"));
        Files.writeString(wd.resolve("audit/calls.jsonl"), "{\"arguments\": \"" + AUDITED + "\"}\n");
        Files.createDirectories(wd.resolve("state/storage/bundle1"));
        Files.writeString(wd.resolve("state/storage/bundle1/state"), SECRET + "\n");
        Files.createDirectories(wd.resolve("docs"));
        Files.writeString(wd.resolve("docs/readme.md"), "hello\n");
        Files.createSymbolicLink(wd.resolve("docs/settings"), Path.of("../etc"));
        Files.createSymbolicLink(wd.resolve("docs/jwt.cfg"), Path.of("../etc/io.quiver.auth.jwt.cfg"));
        // the working directory writable: the worst an operator may configure
        workspace = new Workspace(Map.of("roots", ".:rw"), wd, wd, List.of(Path.of("etc"), wd.resolve("deploy"),
                Path.of("state/storage")));
    }

    @Test
    void noReadReachesThemByAnyName() throws Exception {
        for (String path : List.of("etc/io.quiver.auth.jwt.cfg", wd + "/etc/io.quiver.auth.jwt.cfg",
                "docs/../etc/io.quiver.auth.jwt.cfg", "docs/settings/io.quiver.auth.jwt.cfg", "docs/jwt.cfg",
                "audit/calls.jsonl", "state/storage/bundle1/state")) {
            ToolResult read = call(new ReadTextFileTool(workspace), new ReadTextFileTool.Arguments(path, Optional.empty(),
                    Optional.empty()));
            assertTrue(read.isError(), path + ": " + text(read));
            assertTrue(text(read).contains("never reach"), path + ": " + text(read));
            assertFalse(leaks(read), path);
        }
        ToolResult several = call(new ReadMultipleFilesTool(workspace), new ReadMultipleFilesTool.Arguments(List.of(
                "docs/readme.md", "etc/io.quiver.auth.jwt.cfg", "audit/calls.jsonl")));
        assertTrue(text(several).contains("hello"), text(several));
        assertFalse(leaks(several), text(several));
        for (String directory : List.of("etc", "docs/settings", "deploy")) {
            ToolResult listed = call(new ListDirectoryTool(workspace), new PathArgument(directory));
            assertTrue(listed.isError() && text(listed).contains("never reach"), directory + ": " + text(listed));
        }
        assertTrue(call(new GetFileInfoTool(workspace), new PathArgument("etc/io.quiver.auth.jwt.cfg")).isError());
    }

    @Test
    void noWalkEntersThem() throws Exception {
        ToolResult grep = call(new SearchFileContentsTool(workspace), new SearchFileContentsTool.Arguments(".",
                "never-shown|hello", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        assertTrue(text(grep).contains("hello"), text(grep));
        assertFalse(leaks(grep), text(grep));
        ToolResult found = call(new SearchFilesTool(workspace), new SearchFilesTool.Arguments(".", "**/*", Optional.empty()));
        assertTrue(text(found).contains("readme.md"), text(found));
        for (String folder : List.of("/etc", "/deploy", "/audit", "/state/storage")) {
            assertFalse(text(found).contains(wd + folder), folder + " in " + text(found));
        }
        ToolResult tree = call(new DirectoryTreeTool(workspace), new DirectoryTreeTool.Arguments(".", Optional.empty(),
                Optional.empty()));
        assertTrue(text(tree).contains("\"docs\""), text(tree));
        for (String name : List.of("\"etc\"", "\"deploy\"", "\"audit\"", "\"storage\"", "calls.jsonl")) {
            assertFalse(text(tree).contains(name), name + " in " + text(tree));
        }
    }

    @Test
    void anEmbeddingApplicationsPrivateFoldersAreTheServersToo(@TempDir Path temp) throws Exception {
        // the console host kept every caller's arguments and results under the working directory, readable by
        // search_file_contents (attacker review): the launcher's privateFolder names such folders
        Path base = temp.toRealPath();
        Files.createDirectories(base.resolve("app-home"));
        Files.writeString(base.resolve("app-home/calls.jsonl"), AUDITED + "\n");
        Files.createDirectories(base.resolve("records"));
        Map<String, String> properties = Map.of(Workspace.PRIVATE,
                base.resolve("app-home") + java.io.File.pathSeparator + base.resolve("records"));
        org.osgi.framework.BundleContext context = (org.osgi.framework.BundleContext) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {org.osgi.framework.BundleContext.class},
                (proxy, method, args) -> method.getName().equals("getProperty") ? properties.get((String) args[0]) : null);
        List<Path> folders = Workspace.serverFolders(context);
        assertTrue(folders.contains(base.resolve("app-home")) && folders.contains(base.resolve("records")), folders.toString());
        Workspace embedded = new Workspace(Map.of("roots", "."), base, base, folders);
        ToolResult grep = call(new SearchFileContentsTool(embedded), new SearchFileContentsTool.Arguments(".",
                "never-shown", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        assertFalse(leaks(grep), text(grep));
        assertTrue(call(new ReadTextFileTool(embedded), new ReadTextFileTool.Arguments("app-home/calls.jsonl",
                Optional.empty(), Optional.empty())).isError());
    }

    @Test
    void noListingShowsThem() throws Exception {
        ToolResult top = call(new ListDirectoryTool(workspace), new PathArgument("."));
        assertTrue(text(top).contains("[DIR] docs"), text(top));
        ToolResult sized = call(new ListDirectoryWithSizesTool(workspace), new ListDirectoryWithSizesTool.Arguments(".",
                Optional.empty()));
        assertTrue(text(sized).contains("docs"), text(sized));
        for (String name : List.of("etc", "deploy", "audit")) {
            assertFalse(text(top).contains("[DIR] " + name), name + " in " + text(top));
            assertFalse(text(sized).contains(name), name + " in " + text(sized));
            assertFalse(String.valueOf(top.structuredContent()).contains("name=" + name + ","), name + " in " + top.structuredContent());
        }
        ToolResult state = call(new ListDirectoryTool(workspace), new PathArgument("state"));
        assertFalse(state.isError(), text(state));
        assertFalse(text(state).contains("storage"), text(state));
    }

    @Test
    void noWriteOrMoveChangesThem() throws Exception {
        List<ToolResult> writes = List.of(
                call(new WriteFileTool(workspace), new WriteFileTool.Arguments("etc/io.quiver.grants.cfg", "x")),
                call(new WriteFileTool(workspace), new WriteFileTool.Arguments("deploy/evil.jar", "x")),
                call(new WriteFileTool(workspace), new WriteFileTool.Arguments("docs/settings/apikey-evil.cfg", "x")),
                call(new EditFileTool(workspace), new EditFileTool.Arguments("etc/io.quiver.auth.jwt.cfg",
                        List.of(new EditFileTool.Edit("SECRET", "MINE")), Optional.of(false))),
                call(new CreateDirectoryTool(workspace), new PathArgument("etc/more")),
                call(new MoveFileTool(workspace), new MoveFileTool.Arguments("docs/readme.md", "deploy/readme.md")),
                call(new MoveFileTool(workspace), new MoveFileTool.Arguments("etc", "elsewhere")),
                call(new MoveFileTool(workspace), new MoveFileTool.Arguments("state", "elsewhere")));
        for (ToolResult write : writes) {
            assertTrue(write.isError(), text(write));
            assertTrue(text(write).contains("never reach"), text(write));
        }
        assertEquals(List.of("io.quiver.auth.jwt.cfg"), names("etc"));
        assertEquals(List.of(), names("deploy"));
        assertEquals(SECRET + "\n", Files.readString(wd.resolve("etc/io.quiver.auth.jwt.cfg")));
        assertTrue(Files.exists(wd.resolve("docs/readme.md")));
        assertTrue(Files.exists(wd.resolve("state/storage/bundle1/state")), "the folder holding the storage stayed");
        assertFalse(Files.exists(wd.resolve("elsewhere")));
    }

    @Test
    void theFoldersAreKnownByIdentityNotOnlyByName() throws Exception {
        // another name for etc/ that its path does not show (as "ETC" is on a file system that ignores case, or a
        // bind mount): here it was renamed after the tools read their settings
        Files.move(wd.resolve("etc"), wd.resolve("renamed"));
        ToolResult read = call(new ReadTextFileTool(workspace), new ReadTextFileTool.Arguments(
                "renamed/io.quiver.auth.jwt.cfg", Optional.empty(), Optional.empty()));
        assertTrue(read.isError() && text(read).contains("never reach"), text(read));
        ToolResult listed = call(new ListDirectoryTool(workspace), new PathArgument("renamed"));
        assertTrue(listed.isError() && text(listed).contains("never reach"), text(listed));
        ToolResult grep = call(new SearchFileContentsTool(workspace), new SearchFileContentsTool.Arguments(".",
                "never-shown", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        assertFalse(leaks(grep), text(grep));
        ToolResult moved = call(new MoveFileTool(workspace), new MoveFileTool.Arguments("renamed", "elsewhere"));
        assertTrue(moved.isError(), text(moved));
    }

    @Test
    void aFolderMadeAfterTheSettingsWereReadIsKnownByIdentityToo(@TempDir Path temp) throws Exception {
        Path base = temp.toRealPath();
        Workspace later = new Workspace(Map.of("roots", ".:rw"), base, base, List.of());
        Files.createDirectories(base.resolve("audit")); // the audit trail's folder, made at its first line
        Files.writeString(base.resolve("audit/calls.jsonl"), "{\"arguments\": \"" + AUDITED + "\"}\n");
        Thread.sleep(1_100); // the settings look for it again at most once a second
        call(new ListAllowedDirectoriesTool(later), new ListAllowedDirectoriesTool.Arguments());
        Files.move(base.resolve("audit"), base.resolve("renamed"));
        ToolResult read = call(new ReadTextFileTool(later), new ReadTextFileTool.Arguments("renamed/calls.jsonl",
                Optional.empty(), Optional.empty()));
        assertTrue(read.isError() && text(read).contains("never reach"), text(read));
        assertFalse(leaks(read));
    }

    @Test
    void aServerFolderThatIsALinkCannotBeMovedAsideAndReplaced(@TempDir Path temp) throws Exception {
        Path base = temp.toRealPath();
        Files.createDirectories(base.resolve("real-deploy"));
        Files.createSymbolicLink(base.resolve("deploy"), Path.of("real-deploy"));
        Workspace linked = new Workspace(Map.of("roots", ".:rw"), base, base, List.of(Path.of("deploy")));
        ToolResult moved = call(new MoveFileTool(linked), new MoveFileTool.Arguments("deploy", "old-deploy"));
        assertTrue(moved.isError() && text(moved).contains("never reach"), text(moved));
        assertTrue(Files.isSymbolicLink(base.resolve("deploy")), "the link is where the server looks");
        for (String path : List.of("deploy/evil.jar", "real-deploy/evil.jar")) {
            ToolResult dropped = call(new WriteFileTool(linked), new WriteFileTool.Arguments(path, "x"));
            assertTrue(dropped.isError() && text(dropped).contains("never reach"), path + ": " + text(dropped));
        }
        try (var entries = Files.list(base.resolve("real-deploy"))) {
            assertEquals(0, entries.count(), "nothing dropped into the deploy folder");
        }
    }

    @Test
    void anOperatorExcludesMoreAndARootInsideOneReachesNothing(@TempDir Path temp) throws Exception {
        Path base = temp.toRealPath();
        Files.createDirectories(base.resolve("private"));
        Files.writeString(base.resolve("private/notes.txt"), "private\n");
        Workspace excluding = new Workspace(Map.of("roots", ".", "exclude", "private"), base, base);
        assertTrue(text(call(new ReadTextFileTool(excluding), new ReadTextFileTool.Arguments("private/notes.txt",
                Optional.empty(), Optional.empty()))).contains("never reach"));

        Workspace inside = new Workspace(Map.of("roots", "etc"), wd, wd, List.of(Path.of("etc")));
        assertTrue(inside.problems().stream().anyMatch(p -> p.reason().contains("nothing in it can be reached")),
                inside.problems().toString());
        assertTrue(call(new ReadTextFileTool(inside), new ReadTextFileTool.Arguments("io.quiver.auth.jwt.cfg",
                Optional.empty(), Optional.empty())).isError());
    }

    private List<String> names(String folder) throws Exception {
        try (var entries = Files.list(wd.resolve(folder))) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static boolean leaks(ToolResult result) {
        String all = result.content() + " " + result.structuredContent();
        return all.contains("SECRET-5d1e") || all.contains(AUDITED);
    }
}
