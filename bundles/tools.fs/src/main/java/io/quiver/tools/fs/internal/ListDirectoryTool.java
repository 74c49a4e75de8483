package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code list_directory}: the entries of a directory, by name, marked {@code [DIR]} or {@code [FILE]}. */
@Component(service = Tool.class)
@McpTool(name = "list_directory",
        title = "List Directory",
        description = "Get a detailed listing of all files and directories in a specified path, sorted by name."
                + " Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes"
                + " (symbolic links are listed as files and not followed). Only works within allowed directories.",
        arguments = PathArgument.class,
        output = ListDirectoryTool.Listing.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ListDirectoryTool implements Tool {

    /**
     * One entry of a listing.
     *
     * @param type {@code file}, {@code directory}, {@code symlink} or {@code other}
     * @param size its size in bytes (of the link itself for a link; 0 for a directory)
     */
    public record Listed(String name, String type, long size) {
    }

    /**
     * A directory's entries.
     *
     * @param total how many entries it has
     * @param truncated whether more entries than the result limit were left out
     */
    public record Listing(String path, List<Listed> entries, int total, boolean truncated) {
    }

    private final Workspace workspace;

    @Activate
    public ListDirectoryTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        PathArgument arguments = call.arguments(PathArgument.class);
        return workspace.run(call, sandbox -> {
            Listing listing = list(sandbox, arguments.path(), sandbox.settings().maxResults());
            StringBuilder text = new StringBuilder();
            for (Listed entry : listing.entries()) {
                if (text.length() > 0) {
                    text.append('\n');
                }
                text.append("directory".equals(entry.type()) ? "[DIR] " : "[FILE] ").append(PathRules.plain(entry.name()));
            }
            if (listing.truncated()) {
                text.append("\n[").append(listing.total() - listing.entries().size())
                        .append(" more entries not shown: the result limit is ").append(listing.entries().size())
                        .append("]");
            }
            return new ToolResult(List.of(new TextContent(text.toString())), listing, false, Map.of());
        });
    }

    /** A directory's entries by name, at most {@code limit} of them. */
    static Listing list(Sandbox sandbox, String path, int limit) throws FsException, IOException {
        try (Dir dir = sandbox.openDirectory(path)) {
            List<String> names = dir.names();
            names.sort(Walker.ORDER);
            List<Listed> entries = new ArrayList<>();
            int total = 0;
            AllowedRoots roots = sandbox.roots();
            for (String name : names) {
                if (roots.isExcluded(dir.path().resolve(name))) {
                    continue; // a folder no tool reaches is not shown either, as in a walk
                }
                BasicFileAttributes attributes = dir.stat(name);
                if (attributes == null || roots.isExcluded(attributes)) {
                    continue;
                }
                total++;
                if (entries.size() < limit) {
                    entries.add(new Listed(name, Walker.type(attributes),
                            attributes.isDirectory() ? 0 : attributes.size()));
                }
            }
            return new Listing(dir.path().toString(), entries, total, total > entries.size());
        }
    }
}
