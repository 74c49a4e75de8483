package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code read_file}: the reference server's deprecated name of {@code read_text_file}, kept for prompts that use it. */
@Component(service = Tool.class)
@McpTool(name = "read_file",
        title = "Read File (Deprecated)",
        description = "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
        arguments = ReadTextFileTool.Arguments.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ReadFileTool implements Tool {

    private final Workspace workspace;

    @Activate
    public ReadFileTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        ReadTextFileTool.Arguments arguments = call.arguments(ReadTextFileTool.Arguments.class);
        return workspace.run(call, sandbox -> ReadTextFileTool.read(sandbox, arguments));
    }
}
