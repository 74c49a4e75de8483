package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.Content;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code read_text_file}: a text file, whole or its first or last lines. */
@Component(service = Tool.class)
@McpTool(name = "read_text_file",
        title = "Read Text File",
        description = "Read the complete contents of a file from the file system as UTF-8 text. Use the 'head'"
                + " parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last"
                + " N lines. Operates on the file as text regardless of extension; a binary file (one with NUL bytes)"
                + " is refused (use read_media_file). Files larger than the server's read limit must be read with"
                + " head or tail. Only works within allowed directories.",
        arguments = ReadTextFileTool.Arguments.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ReadTextFileTool implements Tool {

    /** The arguments of {@code read_text_file} (and {@code read_file}). */
    @Description("Which file, and which part of it")
    public record Arguments(
            @Description("The file: absolute, or relative to the first allowed root") String path,
            @Description("If provided, returns only the first N lines of the file") Optional<Integer> head,
            @Description("If provided, returns only the last N lines of the file") Optional<Integer> tail) {
    }

    private final Workspace workspace;

    @Activate
    public ReadTextFileTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> read(sandbox, arguments));
    }

    /** Reads as {@code read_text_file} does. */
    static ToolResult read(Sandbox sandbox, Arguments arguments) throws FsException, IOException {
        Integer head = arguments.head().orElse(null);
        Integer tail = arguments.tail().orElse(null);
        if (head != null && tail != null) {
            throw new FsException("Cannot specify both head and tail parameters simultaneously.");
        }
        if (head != null && head < 1 || tail != null && tail < 1) {
            throw new FsException("head and tail must be at least 1.");
        }
        long limit = sandbox.settings().maxReadBytes();
        try (Entry entry = sandbox.locate(arguments.path(), true);
                SeekableByteChannel channel = sandbox.openRead(entry)) {
            if (TextFiles.looksBinary(channel)) {
                throw new FsException(entry.path() + " looks like a binary file (it has NUL bytes; "
                        + TextFiles.size(channel.size()) + "). Use read_media_file for images and audio, or"
                        + " get_file_info for its size and dates.");
            }
            List<Content> content = new ArrayList<>();
            if (head != null || tail != null) {
                TextFiles.Part part = head != null ? TextFiles.head(channel, head, limit)
                        : TextFiles.tail(channel, tail, limit);
                content.add(new TextContent(part.text()));
                if (part.cut()) {
                    content.add(new TextContent("[Stopped at the read limit of " + TextFiles.size(limit)
                            + " before " + (head != null ? head : tail) + " lines were complete.]"));
                }
            } else {
                content.add(new TextContent(TextFiles.decode(TextFiles.readAll(channel, limit,
                        entry.path().toString()))));
            }
            return new ToolResult(content, null, false, Map.of());
        }
    }
}
