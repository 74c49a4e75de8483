package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code move_file}: renames or moves a file or directory; never over an existing entry. */
@Component(service = Tool.class)
@McpTool(name = "move_file",
        title = "Move File",
        description = "Move or rename files and directories. Can move files between directories and rename them in a"
                + " single operation. If the destination exists, the operation will fail. A symbolic link is moved as"
                + " itself. Both source and destination must be within allowed directories whose root is writable,"
                + " on the same file system.",
        arguments = MoveFileTool.Arguments.class,
        output = MoveFileTool.Moved.class,
        readOnlyHint = false, destructiveHint = true, idempotentHint = false, openWorldHint = false)
public final class MoveFileTool implements Tool {

    /** The arguments of {@code move_file}. */
    @Description("What to move where")
    public record Arguments(
            @Description("What to move: absolute, or relative to the first allowed root") String source,
            @Description("Where to: the new path, which must not exist yet") String destination) {
    }

    /** What {@code move_file} did (real paths). */
    public record Moved(String source, String destination) {
    }

    private final Workspace workspace;

    @Activate
    public MoveFileTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> move(sandbox, arguments));
    }

    static ToolResult move(Sandbox sandbox, Arguments arguments) throws FsException, IOException {
        try (Entry source = sandbox.locate(arguments.source(), false);
                Entry destination = sandbox.locate(arguments.destination(), false)) {
            if (!source.exists()) {
                throw new FsException("No such file or directory: " + source.path() + ".");
            }
            if (source.isRoot() || destination.isRoot()) {
                throw new FsException("An allowed root cannot be moved or replaced.");
            }
            if (sandbox.roots().holdsExcluded(source.path(), source.attributes())) {
                // moved, a folder of the server's own would go from where the server (and the exclusion) has it
                throw new FsException("Access denied: " + source.path() + " holds a folder the file tools never reach"
                        + " (the server's own configuration, deploy folder, storage or audit trail, or one an operator"
                        + " excluded), so it cannot be moved.");
            }
            sandbox.roots().requireWritable(source.path(), arguments.source());
            sandbox.roots().requireWritable(destination.path(), arguments.destination());
            if (destination.exists()) {
                throw new FsException("Destination already exists: " + destination.path() + ".");
            }
            if (source.attributes().isDirectory() && destination.path().startsWith(source.path())) {
                throw new FsException("Cannot move " + source.path() + " into itself.");
            }
            try {
                sandbox.move(source, destination);
            } catch (AtomicMoveNotSupportedException e) {
                throw new FsException("Cannot move " + source.path() + " to " + destination.path()
                        + ": they are on different file systems.");
            } catch (FileSystemException e) {
                if (e instanceof java.nio.file.NoSuchFileException) {
                    throw e;
                }
                throw new FsException("Cannot move " + source.path() + " to " + destination.path() + " ("
                        + (e.getReason() == null ? "refused" : e.getReason()) + ").");
            }
            Moved moved = new Moved(source.path().toString(), destination.path().toString());
            return new ToolResult(List.of(new TextContent("Successfully moved " + arguments.source() + " to "
                    + arguments.destination())), moved, false, Map.of());
        }
    }
}
