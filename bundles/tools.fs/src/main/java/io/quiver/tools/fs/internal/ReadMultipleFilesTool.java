package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.schema.Description;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code read_multiple_files}: several text files at once; one that cannot be read does not stop the others. */
@Component(service = Tool.class)
@McpTool(name = "read_multiple_files",
        title = "Read Multiple Files",
        description = "Read the contents of multiple files simultaneously. This is more efficient than reading files"
                + " one by one when you need to analyze or compare multiple files. Each file's content is returned with"
                + " its path as a reference. Failed reads for individual files won't stop the entire operation. The"
                + " files together must stay within the server's read limit. Only works within allowed directories.",
        arguments = ReadMultipleFilesTool.Arguments.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ReadMultipleFilesTool implements Tool {

    /** The arguments of {@code read_multiple_files}. */
    @Description("The files to read")
    public record Arguments(
            @Description("Array of file paths to read. Each path must be a string pointing to a valid file within"
                    + " allowed directories.") List<String> paths) {
    }

    private final Workspace workspace;

    @Activate
    public ReadMultipleFilesTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> read(sandbox, arguments.paths()));
    }

    static ToolResult read(Sandbox sandbox, List<String> paths) throws FsException {
        if (paths.isEmpty()) {
            throw new FsException("At least one file path must be provided.");
        }
        long left = sandbox.settings().maxReadBytes();
        List<String> parts = new ArrayList<>();
        for (String path : paths) {
            String shown = path == null ? "(null)" : path;
            try (Entry entry = sandbox.locate(path, true);
                    SeekableByteChannel channel = sandbox.openRead(entry)) {
                if (TextFiles.looksBinary(channel)) {
                    throw new FsException(entry.path() + " looks like a binary file (it has NUL bytes).");
                }
                if (channel.size() > left) {
                    throw new FsException("not read: it is " + TextFiles.size(channel.size()) + ", and the files"
                            + " together may take " + TextFiles.size(sandbox.settings().maxReadBytes())
                            + " (read it alone, or with head or tail).");
                }
                byte[] bytes = TextFiles.readAll(channel, left, entry.path().toString());
                left -= bytes.length;
                parts.add(shown + ":\n" + TextFiles.decode(bytes) + "\n");
            } catch (FsException e) {
                parts.add(shown + ": Error - " + e.getMessage());
            } catch (IOException e) {
                parts.add(shown + ": Error - " + Workspace.describe(e));
            }
        }
        return ToolResult.text(String.join("\n---\n", parts));
    }
}
