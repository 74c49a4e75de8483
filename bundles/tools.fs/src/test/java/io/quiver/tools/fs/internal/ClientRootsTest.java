package io.quiver.tools.fs.internal;

import static io.quiver.tools.fs.internal.Fixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.testing.FakeToolCall;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client's MCP roots narrow the configured roots; they never widen them. */
class ClientRootsTest {

    private static final Map<String, Object> ROOTS_CAPABILITY = Map.of("roots", Map.of("listChanged", true));

    @TempDir
    Path temp;
    Fixture f;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixture(temp);
    }

    private static ToolResult answered(Tool tool, Object args, String... uris) throws Exception {
        List<InputResponse.Root> roots = java.util.Arrays.stream(uris).map(u -> new InputResponse.Root(u, null)).toList();
        Outcome outcome = tool.call(FakeToolCall.typed(args).withCapabilities(ROOTS_CAPABILITY)
                .answered(Workspace.ROOTS, new InputResponse.RootList(roots)));
        return assertInstanceOf(Outcome.Done.class, outcome).result();
    }

    @Test
    void aClientThatOffersRootsIsAskedForThemFirst() throws Exception {
        Outcome first = new ListAllowedDirectoriesTool(f.workspace).call(
                FakeToolCall.typed(new ListAllowedDirectoriesTool.Arguments()).withCapabilities(ROOTS_CAPABILITY));
        Outcome.NeedsInput asks = assertInstanceOf(Outcome.NeedsInput.class, first);
        assertEquals(List.of(new InputRequest.Roots(Workspace.ROOTS)), asks.requests());
    }

    @Test
    void aClientRootInsideNarrowsToItAndRelativePathsStartThere() throws Exception {
        String sub = f.root.resolve("sub").toUri().toString();
        ToolResult listed = answered(new ListAllowedDirectoriesTool(f.workspace),
                new ListAllowedDirectoriesTool.Arguments(), sub);
        assertTrue(text(listed).startsWith("Allowed directories:\n" + f.root.resolve("sub") + "\n"), text(listed));
        ReadTextFileTool read = new ReadTextFileTool(f.workspace);
        assertEquals("bravo\n", text(answered(read, new ReadTextFileTool.Arguments("b.txt", Optional.empty(),
                Optional.empty()), sub)));
        ToolResult outsideTheClientRoot = answered(read, new ReadTextFileTool.Arguments(f.root + "/a.txt",
                Optional.empty(), Optional.empty()), sub);
        assertTrue(outsideTheClientRoot.isError(), text(outsideTheClientRoot));
        ToolResult up = answered(read, new ReadTextFileTool.Arguments("../a.txt", Optional.empty(), Optional.empty()),
                sub);
        assertTrue(up.isError(), text(up));
    }

    @Test
    void aClientRootAroundTheConfiguredRootLeavesItAsItIs() throws Exception {
        ToolResult listed = answered(new ListAllowedDirectoriesTool(f.workspace),
                new ListAllowedDirectoriesTool.Arguments(), f.base.toUri().toString());
        assertEquals("Allowed directories:\n" + f.root + "\n\nAll are writable. (Narrowed to the client's roots.)",
                text(listed));
        ToolResult outside = answered(new ReadTextFileTool(f.workspace), new ReadTextFileTool.Arguments(
                f.canary.toString(), Optional.empty(), Optional.empty()), f.base.toUri().toString());
        assertTrue(outside.isError(), "a client root never widens: " + text(outside));
        assertFalse(Fixture.leaks(outside));
    }

    @Test
    void clientRootsOutsideEveryConfiguredRootAllowNothing() throws Exception {
        ToolResult result = answered(new ListDirectoryTool(f.workspace), new PathArgument("."),
                f.outside.toUri().toString(), "https://example.com/", "file:///does/not/exist");
        assertTrue(result.isError());
        assertTrue(text(result).contains("none of the client's roots"), text(result));
    }

    @Test
    void noClientRootsMeansTheConfiguredOnes() throws Exception {
        ToolResult result = answered(new ListDirectoryTool(f.workspace), new PathArgument("."));
        assertFalse(result.isError(), text(result));
        assertTrue(text(result).contains("[FILE] a.txt"), text(result));
    }

    @Test
    void theClientsRootsAreNotAskedForWhenTheConfigurationSaysSo(@TempDir Path other) throws Exception {
        Fixture ignoring = new Fixture(other, ":rw", Map.of("clientRoots", "false"));
        Outcome outcome = new ListDirectoryTool(ignoring.workspace).call(
                FakeToolCall.typed(new PathArgument(".")).withCapabilities(ROOTS_CAPABILITY));
        assertInstanceOf(Outcome.Done.class, outcome);
    }

    @Test
    void aLinkInsideTheClientRootThatLeadsOutOfItIsRefused() throws Exception {
        java.nio.file.Files.createSymbolicLink(f.root.resolve("sub/to-a"), Path.of("../a.txt"));
        ToolResult result = answered(new ReadTextFileTool(f.workspace), new ReadTextFileTool.Arguments("to-a",
                Optional.empty(), Optional.empty()), f.root.resolve("sub").toUri().toString());
        assertTrue(result.isError(), text(result));
    }
}
