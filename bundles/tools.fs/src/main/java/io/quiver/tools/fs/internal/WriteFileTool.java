package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code write_file}: creates a file or replaces one's content, atomically. */
@Component(service = Tool.class)
@McpTool(name = "write_file",
        title = "Write File",
        description = "Create a new file or completely overwrite an existing file with new content (UTF-8). Use with"
                + " caution as it will overwrite existing files without warning; for changes to part of a file use"
                + " edit_file. The parent directory must exist (create_directory makes it). The file is replaced"
                + " atomically: readers see the old or the new content. Only works within allowed directories whose"
                + " root is writable.",
        arguments = WriteFileTool.Arguments.class,
        output = WriteFileTool.Written.class,
        readOnlyHint = false, destructiveHint = true, idempotentHint = true, openWorldHint = false)
public final class WriteFileTool implements Tool {

    /** The arguments of {@code write_file}. */
    @Description("Which file, and its new content")
    public record Arguments(
            @Description("The file: absolute, or relative to the first allowed root") String path,
            @Description("The complete new content of the file") String content) {
    }

    /**
     * What {@code write_file} did.
     *
     * @param created whether the file is new
     */
    public record Written(String path, long bytes, boolean created) {
    }

    private final Workspace workspace;

    @Activate
    public WriteFileTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> write(sandbox, arguments));
    }

    static ToolResult write(Sandbox sandbox, Arguments arguments) throws FsException, IOException {
        byte[] bytes = arguments.content().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > sandbox.settings().maxWriteBytes()) {
            throw new FsException("The content is " + TextFiles.size(bytes.length) + ", more than the write limit of "
                    + TextFiles.size(sandbox.settings().maxWriteBytes()) + ".");
        }
        try (Entry entry = sandbox.locate(arguments.path(), true)) {
            if (entry.isRoot()) {
                throw new FsException(entry.path() + " is an allowed root, a directory.");
            }
            sandbox.roots().requireWritable(entry.path(), arguments.path());
            boolean created = !entry.exists();
            sandbox.replace(entry, bytes, null);
            Written written = new Written(entry.path().toString(), bytes.length, created);
            return new ToolResult(List.of(new TextContent("Successfully wrote to " + arguments.path()
                    + (created ? " (new file, " : " (replaced, ") + TextFiles.size(bytes.length) + ")")),
                    written, false, Map.of());
        }
    }
}
