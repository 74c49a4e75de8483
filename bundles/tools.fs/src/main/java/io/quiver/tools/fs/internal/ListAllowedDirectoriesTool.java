package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.schema.Description;
import io.quiver.api.content.TextContent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code list_allowed_directories}: the roots this call may reach, and which are writable. */
@Component(service = Tool.class)
@McpTool(name = "list_allowed_directories",
        title = "List Allowed Directories",
        description = "Returns the list of directories that this server is allowed to access, and which of them are"
                + " writable. Subdirectories within these allowed directories are also accessible. Use this to"
                + " understand which directories and their nested paths are available before trying to access files;"
                + " relative paths are resolved against the first one.",
        arguments = ListAllowedDirectoriesTool.Arguments.class,
        output = ListAllowedDirectoriesTool.Allowed.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ListAllowedDirectoriesTool implements Tool {

    /** No arguments. */
    @Description("No arguments")
    public record Arguments() {
    }

    /** One allowed directory. */
    public record AllowedDirectory(String path, boolean writable) {
    }

    /**
     * The allowed directories.
     *
     * @param narrowedByClient whether the client's MCP roots narrowed the configured ones
     */
    public record Allowed(List<AllowedDirectory> directories, boolean narrowedByClient) {
    }

    private final Workspace workspace;

    @Activate
    public ListAllowedDirectoriesTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        return workspace.run(call, sandbox -> {
            List<AllowedDirectory> directories = new ArrayList<>();
            List<String> writable = new ArrayList<>();
            for (Path root : sandbox.roots().allowed()) {
                boolean w = sandbox.roots().writable(root);
                directories.add(new AllowedDirectory(root.toString(), w));
                if (w) {
                    writable.add(root.toString());
                }
            }
            StringBuilder text = new StringBuilder("Allowed directories:");
            directories.forEach(d -> text.append('\n').append(d.path()));
            text.append("\n\n").append(writable.isEmpty() ? "All are read-only."
                    : writable.size() == directories.size() ? "All are writable."
                    : "Writable: " + String.join(", ", writable) + "; the others are read-only.");
            if (sandbox.roots().narrowed()) {
                text.append(" (Narrowed to the client's roots.)");
            }
            return new ToolResult(List.of(new TextContent(text.toString())),
                    new Allowed(directories, sandbox.roots().narrowed()), false, Map.of());
        });
    }
}
