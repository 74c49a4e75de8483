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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code directory_tree}: the tree under a directory as JSON, to a depth, without excluded names. */
@Component(service = Tool.class)
@McpTool(name = "directory_tree",
        title = "Directory Tree",
        description = "Get a recursive tree view of files and directories as a JSON structure. Each entry includes"
                + " 'name', 'type' (file/directory), and 'children' for directories. Files have no children array,"
                + " while directories have a children array (which may be empty; it is left out for directories"
                + " below maxDepth). Symbolic links are shown as files and not followed. excludePatterns are globs"
                + " matched against paths relative to 'path' (a pattern without '*' also excludes that name at any"
                + " depth). The output is formatted with 2-space indentation. At most the server's result limit of"
                + " entries are shown. Only works within allowed directories.",
        arguments = DirectoryTreeTool.Arguments.class,
        output = DirectoryTreeTool.Tree.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class DirectoryTreeTool implements Tool {

    /** The arguments of {@code directory_tree}. */
    @Description("Which tree to show")
    public record Arguments(
            @Description("The directory: absolute, or relative to the first allowed root") String path,
            @Description("Glob patterns of paths to leave out, e.g. node_modules or **/*.log")
            Optional<List<String>> excludePatterns,
            @Description("How many levels below path to show (1: its own entries only); default all")
            Optional<Integer> maxDepth) {
    }

    /**
     * One entry of the tree.
     *
     * @param path its path relative to the tree's directory
     * @param type {@code file}, {@code directory}, {@code symlink} or {@code other}
     * @param depth 1 for the directory's own entries
     */
    public record TreeEntry(String path, String type, int depth) {
    }

    /**
     * The tree, flat, in the order shown.
     *
     * @param truncated whether entries were left out (the result or scan limit)
     */
    public record Tree(String path, List<TreeEntry> entries, boolean truncated) {
    }

    private final Workspace workspace;

    @Activate
    public DirectoryTreeTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> tree(sandbox, call, arguments));
    }

    static ToolResult tree(Sandbox sandbox, ToolCall call, Arguments arguments) throws FsException, IOException {
        List<Glob> excludes = excludes(arguments.excludePatterns().orElse(List.of()));
        int maxDepth = arguments.maxDepth().orElse(0);
        if (arguments.maxDepth().isPresent() && maxDepth < 1) {
            throw new FsException("maxDepth must be at least 1.");
        }
        int limit = sandbox.settings().maxResults();
        List<Object> top = new ArrayList<>();
        List<TreeEntry> flat = new ArrayList<>();
        Deque<List<Object>> levels = new ArrayDeque<>();
        boolean[] cut = {false};
        try (Dir dir = sandbox.openDirectory(arguments.path())) {
            Walker walker = new Walker(call == null ? null : call.context(), sandbox.settings().maxScannedEntries(),
                    sandbox.roots());
            levels.push(top);
            walker.walk(dir, maxDepth, (parent, name, relative, attributes, depth) -> {
                for (Glob exclude : excludes) {
                    if (exclude.matches(relative)) {
                        return false;
                    }
                }
                if (flat.size() >= limit) {
                    cut[0] = true;
                    walker.stop();
                    return false;
                }
                while (levels.size() > depth) {
                    levels.pop();
                }
                Map<String, Object> node = new LinkedHashMap<>();
                node.put("name", name);
                node.put("type", attributes.isDirectory() ? "directory" : "file");
                flat.add(new TreeEntry(relative, Walker.type(attributes), depth));
                levels.peek().add(node);
                if (attributes.isDirectory() && (maxDepth == 0 || depth < maxDepth)) {
                    List<Object> children = new ArrayList<>();
                    node.put("children", children);
                    levels.push(children);
                    return true;
                }
                return false;
            });
            boolean truncated = cut[0] || walker.limited();
            List<Content> content = new ArrayList<>();
            content.add(new TextContent(Json.pretty(top)));
            if (truncated) {
                content.add(new TextContent("[The tree is incomplete: " + (cut[0] ? "the result limit is " + limit
                        + " entries" : "it stopped at " + walker.bound()) + ". Ask for a subdirectory, a smaller"
                        + " maxDepth, or exclude more.]"));
            }
            return new ToolResult(content, new Tree(dir.path().toString(), flat, truncated), false, Map.of());
        }
    }

    /** Exclusion patterns as the reference server reads them: one without '*' excludes that name anywhere too. */
    static List<Glob> excludes(List<String> patterns) throws FsException {
        List<Glob> globs = new ArrayList<>();
        for (String pattern : patterns) {
            if (pattern == null || pattern.isEmpty()) {
                continue;
            }
            globs.add(Glob.of(pattern));
            if (!pattern.contains("*")) {
                globs.add(Glob.of("**/" + pattern));
                globs.add(Glob.of("**/" + pattern + "/**"));
            }
        }
        return globs;
    }
}
