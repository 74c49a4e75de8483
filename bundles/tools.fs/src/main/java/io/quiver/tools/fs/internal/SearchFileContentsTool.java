package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code search_file_contents}: the lines of text files under a directory that match a regular expression. */
@Component(service = Tool.class)
@McpTool(name = "search_file_contents",
        title = "Search File Contents",
        description = "Search the text files under a directory for lines matching a regular expression (Java syntax,"
                + " like grep -E; matched line by line), optionally only in files matching a glob. Returns"
                + " path:line: text for each match, with contextLines lines around it (path-line- text), groups"
                + " separated by --. Binary files, files larger than the server's search limit and hard-linked"
                + " files are skipped and counted. Stops at maxResults matches (at most the server's result limit),"
                + " or when the matches with their context lines reach the server's output limit (then fewer"
                + " contextLines show more)."
                + " A pattern that takes too long (catastrophic backtracking) fails the search. Only searches within"
                + " allowed directories.",
        arguments = SearchFileContentsTool.Arguments.class,
        output = SearchFileContentsTool.Found.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class SearchFileContentsTool implements Tool {

    /** Longest line shown; longer ones are cut (minified files). */
    static final int MAX_LINE_CHARS = 500;
    /** Most context lines around a match. */
    static final int MAX_CONTEXT = 20;
    /** What one match's structured form takes besides its strings (names, line number, brackets, commas). */
    private static final int MATCH_OVERHEAD = 64;

    /** The arguments of {@code search_file_contents}. */
    @Description("What to search for, and where")
    public record Arguments(
            @Description("The directory to search (or one file): absolute, or relative to the first allowed root")
            String path,
            @Description("The regular expression, e.g. TODO|FIXME or class\\s+\\w+Tool") String pattern,
            @Description("Only files matching this glob: without '/' matched against the file name (*.java), else"
                    + " against the path relative to 'path' (src/**/*.ts)") Optional<String> filePattern,
            @Description("Globs of relative paths to leave out (a directory left out is not searched)")
            Optional<List<String>> excludePatterns,
            @Description("Match regardless of case (default false)") Optional<Boolean> ignoreCase,
            @Description("Lines of context before and after each match (default 0, at most 20)")
            Optional<Integer> contextLines,
            @Description("Stop after this many matches (default and maximum: the server's result limit)")
            Optional<Integer> maxResults) {
    }

    /**
     * One matching line.
     *
     * @param line its number, from 1
     * @param before the context lines before it
     * @param after the context lines after it
     */
    public record Match(String path, int line, String text, List<String> before, List<String> after) {
    }

    /**
     * The search's result.
     *
     * @param filesSearched text files whose lines were matched
     * @param filesSkipped files left out (binary, too large, hard-linked, unreadable)
     * @param truncated whether the search stopped early (maxResults, the output limit or the scan limit)
     */
    public record Found(String path, List<Match> matches, int filesSearched, int filesSkipped, boolean truncated) {
    }

    private final Workspace workspace;

    @Activate
    public SearchFileContentsTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> search(sandbox, call, arguments));
    }

    /** Thrown by {@link Deadline} when a match runs out of time. */
    static final class TooSlow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooSlow() {
            super(null, null, false, false);
        }
    }

    /**
     * Text that fails a match which reads it past a deadline (regular expressions have no time limit of their
     * own); the clock is looked at every 1024 characters read.
     */
    static final class Deadline implements CharSequence {
        private final CharSequence text;
        private final long deadline;
        private final int[] reads;

        Deadline(CharSequence text, long deadline) {
            this(text, deadline, new int[1]);
        }

        private Deadline(CharSequence text, long deadline, int[] reads) {
            this.text = text;
            this.deadline = deadline;
            this.reads = reads;
        }

        @Override
        public char charAt(int index) {
            if ((++reads[0] & 1023) == 0 && System.nanoTime() > deadline) {
                throw new TooSlow();
            }
            return text.charAt(index);
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Deadline(text.subSequence(start, end), deadline, reads);
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }

    static ToolResult search(Sandbox sandbox, ToolCall call, Arguments arguments) throws FsException, IOException {
        Settings settings = sandbox.settings();
        Pattern regex;
        try {
            regex = Pattern.compile(arguments.pattern(), arguments.ignoreCase().orElse(false)
                    ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        } catch (PatternSyntaxException e) {
            throw new FsException("Invalid regular expression: " + e.getDescription() + " near index " + e.getIndex()
                    + " of " + arguments.pattern());
        }
        int context = Math.max(0, Math.min(MAX_CONTEXT, arguments.contextLines().orElse(0)));
        int limit = Math.max(1, Math.min(settings.maxResults(), arguments.maxResults().orElse(settings.maxResults())));
        String filePattern = arguments.filePattern().filter(p -> !p.isEmpty()).orElse(null);
        Glob files = filePattern == null ? null : Glob.of(filePattern);
        boolean byName = filePattern != null && !filePattern.contains("/");
        List<Glob> excludes = new ArrayList<>();
        for (String exclude : arguments.excludePatterns().orElse(List.of())) {
            if (exclude != null && !exclude.isEmpty()) {
                excludes.add(Glob.of(exclude));
            }
        }
        Search search = new Search(sandbox, regex, context, limit, settings.maxSearchOutputBytes(),
                settings.regexTimeoutMs() * 1_000_000L);
        String root;
        try (Entry entry = sandbox.locate(arguments.path(), true)) {
            if (!entry.exists()) {
                throw new FsException("No such file or directory: " + entry.path() + ".");
            }
            root = entry.path().toString();
            if (!entry.attributes().isDirectory()) {
                search.file(entry.dir(), entry.name(), entry.path(), entry.attributes());
                return search.result(root, null);
            }
        }
        String limited;
        try (Dir dir = sandbox.openDirectory(arguments.path())) {
            Walker walker = new Walker(call == null ? null : call.context(), settings.maxScannedEntries(), sandbox.roots());
            walker.walk(dir, 0, (parent, name, relative, attributes, depth) -> {
                for (Glob exclude : excludes) {
                    if (exclude.matches(relative)) {
                        return false;
                    }
                }
                if (attributes.isRegularFile() && (files == null || files.matches(byName ? name : relative))) {
                    search.file(parent.stream(), name, parent.path().resolve(name), attributes);
                    if (search.full()) {
                        walker.stop();
                    }
                }
                return true;
            });
            limited = walker.limited() ? walker.bound() : null;
        }
        return search.result(root, limited);
    }

    /**
     * One search's state: the matches so far and the counts. The matches are kept within a byte budget, in the text
     * and in the structured content each (the engine fails a call whose structured content is above its output
     * limit, and cuts text there): a match that would not fit ends the search, as the result limit does.
     */
    private static final class Search {
        private final Sandbox sandbox;
        private final Pattern regex;
        private final int context;
        private final int limit;
        private final long budget;
        private final long timeoutNanos;
        private final List<Match> matches = new ArrayList<>();
        private final StringBuilder text = new StringBuilder();
        private long structuredBytes;
        private long textBytes;
        private int searched;
        private int skipped;
        private boolean full;
        private boolean outOfRoom;

        Search(Sandbox sandbox, Pattern regex, int context, int limit, long budget, long timeoutNanos) {
            this.sandbox = sandbox;
            this.regex = regex;
            this.context = context;
            this.limit = limit;
            this.budget = budget;
            this.timeoutNanos = timeoutNanos;
        }

        boolean full() {
            return full;
        }

        void file(java.nio.file.SecureDirectoryStream<Path> dir, String name, Path path,
                java.nio.file.attribute.BasicFileAttributes attributes) throws FsException, IOException {
            if (full) {
                return;
            }
            if (!attributes.isRegularFile() || attributes.size() > sandbox.settings().maxSearchFileBytes()) {
                skipped++;
                return;
            }
            String content;
            try (SeekableByteChannel channel = sandbox.openRead(dir, name, path, attributes)) {
                if (TextFiles.looksBinary(channel)) {
                    skipped++;
                    return;
                }
                content = TextFiles.decode(TextFiles.readAll(channel, sandbox.settings().maxSearchFileBytes(),
                        path.toString()));
            } catch (FsException | IOException e) {
                skipped++;
                return;
            }
            searched++;
            List<String> lines = TextFiles.lines(content);
            long deadline = System.nanoTime() + timeoutNanos;
            Matcher matcher = regex.matcher("");
            int shownUpTo = -1; // the last line index already printed for this file
            for (int i = 0; i < lines.size(); i++) {
                boolean found;
                try {
                    found = matcher.reset(new Deadline(lines.get(i), deadline)).find();
                } catch (TooSlow e) {
                    throw new FsException("The regular expression took longer than "
                            + sandbox.settings().regexTimeoutMs() + " ms on " + path + " (catastrophic backtracking?);"
                            + " the search was stopped. Simplify the pattern, e.g. avoid nested repetition such as"
                            + " (a+)+.");
                }
                if (!found) {
                    continue;
                }
                int from = Math.max(0, i - context);
                int to = Math.min(lines.size() - 1, i + context);
                Match match = new Match(path.toString(), i + 1, cut(lines.get(i)),
                        lines.subList(from, i).stream().map(Search::cut).toList(),
                        lines.subList(i + 1, to + 1).stream().map(Search::cut).toList());
                int start = Math.max(from, shownUpTo + 1);
                boolean newGroup = shownUpTo < 0 || start > shownUpTo + 1;
                StringBuilder shown = new StringBuilder();
                if (context > 0 && text.length() > 0 && newGroup && start <= to) {
                    shown.append("--\n");
                }
                for (int j = start; j <= to; j++) {
                    boolean isMatch = j == i || j > i && regexFinds(matcher, lines.get(j), deadline, path);
                    shown.append(PathRules.plain(path.toString())).append(isMatch ? ':' : '-').append(j + 1).append(isMatch ? ": " : "- ")
                            .append(cut(lines.get(j))).append('\n');
                }
                long size = size(match);
                long shownSize = shown.toString().getBytes(StandardCharsets.UTF_8).length;
                if (structuredBytes + size > budget || textBytes + shownSize > budget) {
                    outOfRoom = true;
                    full = true;
                    return;
                }
                matches.add(match);
                structuredBytes += size;
                text.append(shown);
                textBytes += shownSize;
                shownUpTo = Math.max(shownUpTo, to);
                if (matches.size() >= limit) {
                    full = true;
                    return;
                }
            }
        }

        private boolean regexFinds(Matcher matcher, String line, long deadline, Path path) throws FsException {
            try {
                return matcher.reset(new Deadline(line, deadline)).find();
            } catch (TooSlow e) {
                throw new FsException("The regular expression took longer than " + sandbox.settings().regexTimeoutMs()
                        + " ms on " + path + "; the search was stopped.");
            }
        }

        /** About how many bytes a match takes in the structured content (JSON): at least that many. */
        private static long size(Match match) {
            long size = MATCH_OVERHEAD + Json.bytes(match.path()) + Json.bytes(match.text());
            for (String line : match.before()) {
                size += Json.bytes(line) + 1;
            }
            for (String line : match.after()) {
                size += Json.bytes(line) + 1;
            }
            return size;
        }

        private static String cut(String line) {
            return line.length() <= MAX_LINE_CHARS ? line : line.substring(0, MAX_LINE_CHARS) + "…";
        }

        /** @param limited the walk's bound it met, or null */
        ToolResult result(String root, String limited) {
            boolean truncated = full || limited != null;
            StringBuilder out = new StringBuilder(matches.isEmpty() && !outOfRoom ? "No matches found\n" : text);
            out.append("[").append(matches.size()).append(matches.size() == 1 ? " match" : " matches").append(" in ")
                    .append(searched).append(searched == 1 ? " file" : " files");
            if (skipped > 0) {
                out.append("; ").append(skipped).append(" skipped (binary, too large, hard-linked or unreadable)");
            }
            if (truncated) {
                out.append("; stopped early: ").append(outOfRoom ? "the output limit of " + budget + " bytes (fewer"
                        + " contextLines, or a narrower path, filePattern or pattern, show the rest)"
                        : full ? "the result limit of " + limit + " matches" : limited);
            }
            out.append("]");
            return new ToolResult(List.of(new TextContent(out.toString())),
                    new Found(root, List.copyOf(matches), searched, skipped, truncated), false, Map.of());
        }
    }
}
