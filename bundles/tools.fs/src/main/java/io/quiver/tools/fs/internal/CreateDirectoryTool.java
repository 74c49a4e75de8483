package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code create_directory}: a directory and its missing parents; nothing when it exists. */
@Component(service = Tool.class)
@McpTool(name = "create_directory",
        title = "Create Directory",
        description = "Create a new directory or ensure a directory exists. Can create multiple nested directories in"
                + " one operation. If the directory already exists, this operation will succeed silently. Only works"
                + " within allowed directories whose root is writable.",
        arguments = PathArgument.class,
        output = CreateDirectoryTool.Created.class,
        readOnlyHint = false, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class CreateDirectoryTool implements Tool {

    /**
     * What {@code create_directory} did.
     *
     * @param created false when the directory existed already
     */
    public record Created(String path, boolean created) {
    }

    private final Workspace workspace;

    @Activate
    public CreateDirectoryTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        PathArgument arguments = call.arguments(PathArgument.class);
        return workspace.run(call, sandbox -> create(sandbox, arguments.path()));
    }

    static ToolResult create(Sandbox sandbox, String path) throws FsException, IOException {
        Sandbox.Made made = sandbox.createDirectories(path);
        String text = made.created() ? "Successfully created directory " + path
                : "Directory " + path + " already exists";
        return new ToolResult(List.of(new TextContent(text)), new Created(made.path().toString(), made.created()),
                false, Map.of());
    }
}
