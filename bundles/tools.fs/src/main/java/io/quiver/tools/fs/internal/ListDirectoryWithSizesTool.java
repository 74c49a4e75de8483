package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code list_directory_with_sizes}: a listing with file sizes, by name or by size, and totals. */
@Component(service = Tool.class)
@McpTool(name = "list_directory_with_sizes",
        title = "List Directory with Sizes",
        description = "Get a detailed listing of all files and directories in a specified path, including sizes."
                + " Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes, and end"
                + " with the number of files and directories and their combined size. Sizes are of the entries"
                + " themselves (a symbolic link is not followed). Only works within allowed directories.",
        arguments = ListDirectoryWithSizesTool.Arguments.class,
        output = ListDirectoryWithSizesTool.SizedListing.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ListDirectoryWithSizesTool implements Tool {

    /** How to sort. */
    public enum SortBy {
        name, size
    }

    /** The arguments of {@code list_directory_with_sizes}. */
    @Description("Which directory, in which order")
    public record Arguments(
            @Description("The directory: absolute, or relative to the first allowed root") String path,
            @Description("Sort entries by name or size (largest first); default name") Optional<SortBy> sortBy) {
    }

    /**
     * A directory's entries with their sizes.
     *
     * @param totalSize the combined size of the files, in bytes
     * @param truncated whether entries were left out (past the result limit; the totals count them, up to the
     *     scan limit)
     */
    public record SizedListing(String path, List<ListDirectoryTool.Listed> entries, int files, int directories,
            long totalSize, boolean truncated) {
    }

    private final Workspace workspace;

    @Activate
    public ListDirectoryWithSizesTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> {
            // every entry counts in the totals and the order; the result limit cuts after sorting
            ListDirectoryTool.Listing listing = ListDirectoryTool.list(sandbox, arguments.path(),
                    sandbox.settings().maxScannedEntries());
            List<ListDirectoryTool.Listed> entries = new ArrayList<>(listing.entries());
            if (arguments.sortBy().orElse(SortBy.name) == SortBy.size) {
                entries.sort(Comparator.comparingLong(ListDirectoryTool.Listed::size).reversed()
                        .thenComparing(ListDirectoryTool.Listed::name, Walker.ORDER));
            }
            int files = 0;
            int directories = 0;
            long total = 0;
            for (ListDirectoryTool.Listed entry : entries) {
                if ("directory".equals(entry.type())) {
                    directories++;
                } else {
                    files++;
                    total += entry.size();
                }
            }
            int limit = sandbox.settings().maxResults();
            int hidden = listing.total() - Math.min(limit, entries.size());
            if (entries.size() > limit) {
                entries = new ArrayList<>(entries.subList(0, limit));
            }
            StringBuilder text = new StringBuilder();
            for (ListDirectoryTool.Listed entry : entries) {
                boolean directory = "directory".equals(entry.type());
                text.append(directory ? "[DIR] " : "[FILE] ").append(pad(PathRules.plain(entry.name()), 30)).append(' ')
                        .append(directory ? "" : padStart(TextFiles.size(entry.size()), 10)).append('\n');
            }
            if (hidden > 0) {
                text.append("[").append(hidden).append(" more entries not shown: the result limit is ").append(limit)
                        .append("]\n");
            }
            text.append('\n').append("Total: ").append(files).append(" files, ").append(directories)
                    .append(" directories").append('\n').append("Combined size: ").append(TextFiles.size(total));
            SizedListing sized = new SizedListing(listing.path(), entries, files, directories, total, hidden > 0);
            return new ToolResult(List.of(new TextContent(text.toString())), sized, false, Map.of());
        });
    }

    private static String pad(String text, int width) {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }

    private static String padStart(String text, int width) {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }
}
