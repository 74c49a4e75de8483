package io.quiver.tools.fs.internal;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolResult;
import io.quiver.api.content.Content;
import io.quiver.api.content.TextContent;
import io.quiver.testing.FakeToolCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A root with files, links out of it and a loop, next to a folder outside it holding a canary file, and the
 * tools over it.
 *
 * <pre>
 * base/outside/canary.txt          CANARY_TEXT
 * base/root/a.txt                  "alpha\nbeta\ngamma\n"
 * base/root/sub/b.txt              "bravo\n"
 * base/root/link-in      -> a.txt
 * base/root/link-out     -> ../outside/canary.txt
 * base/root/dir-out      -> ../outside
 * base/root/abs-out      -> base/outside/canary.txt (absolute)
 * base/root/loop1 -> loop2, loop2 -> loop1
 * </pre>
 */
final class Fixture {

    static final String CANARY_TEXT = "CANARY-7f3a9c-never-shown";

    final Path base;
    final Path root;
    final Path outside;
    final Path canary;
    final Workspace workspace;

    Fixture(Path tempDir, String rootFlag, Map<String, Object> more) throws IOException {
        this.base = tempDir.toRealPath();
        this.root = Files.createDirectories(base.resolve("root"));
        this.outside = Files.createDirectories(base.resolve("outside"));
        this.canary = Files.writeString(outside.resolve("canary.txt"), CANARY_TEXT);
        Files.writeString(root.resolve("a.txt"), "alpha\nbeta\ngamma\n");
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/b.txt"), "bravo\n");
        Files.createSymbolicLink(root.resolve("link-in"), Path.of("a.txt"));
        Files.createSymbolicLink(root.resolve("link-out"), Path.of("../outside/canary.txt"));
        Files.createSymbolicLink(root.resolve("dir-out"), Path.of("../outside"));
        Files.createSymbolicLink(root.resolve("abs-out"), canary);
        Files.createSymbolicLink(root.resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(root.resolve("loop2"), Path.of("loop1"));
        Map<String, Object> properties = new HashMap<>(more);
        properties.putIfAbsent("roots", root + rootFlag);
        this.workspace = new Workspace(properties, root, base);
    }

    Fixture(Path tempDir) throws IOException {
        this(tempDir, ":rw", Map.of());
    }

    /** Calls a tool once and returns its result (it must finish in one attempt). */
    static ToolResult call(Tool tool, Object args) throws Exception {
        Outcome outcome = tool.call(FakeToolCall.typed(args));
        if (outcome instanceof Outcome.Done done) {
            return done.result();
        }
        throw new AssertionError("the tool did not finish: " + outcome);
    }

    /** Every text block of a result, joined. */
    static String text(ToolResult result) {
        return result.content().stream().filter(TextContent.class::isInstance).map(TextContent.class::cast)
                .map(TextContent::text).collect(Collectors.joining("\n"));
    }

    /** Whether any content block or the structured content mentions the canary's text. */
    static boolean leaks(ToolResult result) {
        for (Content c : result.content()) {
            if (String.valueOf(c).contains(CANARY_TEXT)) {
                return true;
            }
        }
        return String.valueOf(result.structuredContent()).contains(CANARY_TEXT);
    }

    String canaryNow() throws IOException {
        return Files.readString(canary, StandardCharsets.UTF_8);
    }
}
