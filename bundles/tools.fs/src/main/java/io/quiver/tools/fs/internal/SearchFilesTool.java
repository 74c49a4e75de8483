package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code search_files}: the files and directories under a directory whose relative path matches a glob. */
@Component(service = Tool.class)
@McpTool(name = "search_files",
        title = "Search Files",
        description = "Recursively search for files and directories matching a pattern. The patterns should be"
                + " glob-style patterns that match paths relative to the working directory. Use pattern like '*.ext'"
                + " to match files in current directory, and '**/*.ext' to match files in all subdirectories. Returns"
                + " full paths to all matching items (at most the server's result limit). Symbolic links are not"
                + " followed. Great for finding files when you don't know their exact location. Only searches within"
                + " allowed directories.",
        arguments = SearchFilesTool.Arguments.class,
        output = SearchFilesTool.Found.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class SearchFilesTool implements Tool {

    /** The arguments of {@code search_files}. */
    @Description("What to look for, and where")
    public record Arguments(
            @Description("The directory to search: absolute, or relative to the first allowed root") String path,
            @Description("A glob matched against paths relative to 'path', e.g. **/*.java or src/*.md") String pattern,
            @Description("Globs of relative paths to leave out (a directory left out is not searched)")
            Optional<List<String>> excludePatterns) {
    }

    /**
     * The matches, full real paths in the order found.
     *
     * @param truncated whether the search stopped early (the result or scan limit)
     */
    public record Found(String path, List<String> matches, boolean truncated) {
    }

    private final Workspace workspace;

    @Activate
    public SearchFilesTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> search(sandbox, call, arguments));
    }

    static ToolResult search(Sandbox sandbox, ToolCall call, Arguments arguments) throws FsException, IOException {
        Glob pattern = Glob.of(arguments.pattern());
        List<Glob> excludes = new ArrayList<>();
        for (String exclude : arguments.excludePatterns().orElse(List.of())) {
            if (exclude != null && !exclude.isEmpty()) {
                excludes.add(Glob.of(exclude));
            }
        }
        int limit = sandbox.settings().maxResults();
        List<String> matches = new ArrayList<>();
        boolean[] cut = {false};
        try (Dir dir = sandbox.openDirectory(arguments.path())) {
            Walker walker = new Walker(call == null ? null : call.context(), sandbox.settings().maxScannedEntries(),
                    sandbox.roots());
            walker.walk(dir, 0, (parent, name, relative, attributes, depth) -> {
                for (Glob exclude : excludes) {
                    if (exclude.matches(relative)) {
                        return false;
                    }
                }
                if (pattern.matches(relative)) {
                    if (matches.size() >= limit) {
                        cut[0] = true;
                        walker.stop();
                        return false;
                    }
                    matches.add(parent.path().resolve(name).toString());
                }
                return true;
            });
            boolean truncated = cut[0] || walker.limited();
            StringBuilder text = new StringBuilder(matches.isEmpty() ? "No matches found"
                    : String.join("\n", matches.stream().map(PathRules::plain).toList()));
            if (truncated) {
                text.append("\n[The search stopped early: ").append(cut[0] ? "the result limit is " + limit
                        : "it reached " + walker.bound())
                        .append(". Narrow the path or the pattern.]");
            }
            return new ToolResult(List.of(new TextContent(text.toString())),
                    new Found(dir.path().toString(), matches, truncated), false, Map.of());
        }
    }
}
