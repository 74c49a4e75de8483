package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code edit_file}: replaces exact text, each edit matching exactly once, and shows the diff; with
 * {@code dryRun} only the diff. Line ends are matched as {@code \n} and written back as the file had them.
 */
@Component(service = Tool.class)
@McpTool(name = "edit_file",
        title = "Edit File",
        description = "Make edits to a text file: each edit replaces the exact text oldText (which must occur exactly"
                + " once in the file as the earlier edits left it) with newText. Edits apply in order. Returns a"
                + " git-style diff of the changes. With dryRun: true nothing is written and the diff shows what would"
                + " change. If an oldText occurs nowhere or more than once, nothing is written and the error says"
                + " which edit; add surrounding lines to make it unique. Only works within allowed directories whose"
                + " root is writable.",
        arguments = EditFileTool.Arguments.class,
        output = EditFileTool.Edited.class,
        readOnlyHint = false, destructiveHint = true, idempotentHint = false, openWorldHint = false)
public final class EditFileTool implements Tool {

    /** One replacement. */
    @Description("One exact replacement")
    public record Edit(
            @Description("Text to search for - must match exactly, and only once") String oldText,
            @Description("Text to replace with") String newText) {
    }

    /** The arguments of {@code edit_file}. */
    public record Arguments(
            @Description("The file: absolute, or relative to the first allowed root") String path,
            @Description("The edits, applied in order") List<Edit> edits,
            @Description("Preview changes using git-style diff format without writing (default false)")
            Optional<Boolean> dryRun) {
    }

    /**
     * What {@code edit_file} did.
     *
     * @param applied whether the file was written (false for a dry run)
     */
    public record Edited(String path, String diff, boolean applied, int edits) {
    }

    private final Workspace workspace;

    @Activate
    public EditFileTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        Arguments arguments = call.arguments(Arguments.class);
        return workspace.run(call, sandbox -> edit(sandbox, arguments));
    }

    static ToolResult edit(Sandbox sandbox, Arguments arguments) throws FsException, IOException {
        boolean dryRun = arguments.dryRun().orElse(false);
        if (arguments.edits().isEmpty()) {
            throw new FsException("No edits were given.");
        }
        int most = sandbox.settings().maxEdits();
        if (arguments.edits().size() > most) {
            throw new FsException(arguments.edits().size() + " edits were given, more than the " + most
                    + " one call may make; nothing was written. Split them over several calls.");
        }
        try (Entry entry = sandbox.locate(arguments.path(), true)) {
            if (!dryRun) {
                sandbox.roots().requireWritable(entry.path(), arguments.path());
            }
            String original;
            try (SeekableByteChannel channel = sandbox.openRead(entry)) {
                if (TextFiles.looksBinary(channel)) {
                    throw new FsException(entry.path() + " looks like a binary file (it has NUL bytes); it is not"
                            + " edited as text.");
                }
                original = TextFiles.decode(TextFiles.readAll(channel, sandbox.settings().maxWriteBytes(),
                        entry.path().toString()));
            }
            boolean crlf = original.contains("\r\n");
            String before = original.replace("\r\n", "\n");
            String after = apply(before, arguments.edits());
            String diff = shown(UnifiedDiff.of(before, after, entry.path().toString()), sandbox.settings().maxDiffBytes(),
                    dryRun);
            String fence = "```";
            while (diff.contains(fence)) {
                fence += "`";
            }
            String text = fence + "diff\n" + diff + fence + "\n\n";
            if (!dryRun) {
                String written = crlf ? after.replace("\n", "\r\n") : after;
                byte[] bytes = written.getBytes(StandardCharsets.UTF_8);
                if (bytes.length > sandbox.settings().maxWriteBytes()) {
                    throw new FsException("The edited file would be " + TextFiles.size(bytes.length)
                            + ", more than the write limit of " + TextFiles.size(sandbox.settings().maxWriteBytes())
                            + "; nothing was written.");
                }
                sandbox.replace(entry, bytes, entry.attributes());
            }
            Edited edited = new Edited(entry.path().toString(), diff, !dryRun, arguments.edits().size());
            return new ToolResult(List.of(new TextContent(text)), edited, false, Map.of());
        }
    }

    /**
     * The diff as shown: whole when its JSON string form is at most {@code max} bytes, else cut after the last
     * whole line that fits, with a note. It is shown twice (text and structured content), and a result past the
     * engine's output limit fails the call after the file was written: a client would apply the edit again.
     */
    static String shown(String diff, long max, boolean dryRun) {
        if (diff.length() <= max / 6) {
            return diff;
        }
        // counted as JSON carries it in the structured content: a control character escaped takes 6 bytes
        int end = -1;
        long bytes = 0;
        for (int i = 0; i < diff.length(); i++) {
            char c = diff.charAt(i);
            bytes += c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f' ? 2
                    : c < 0x20 ? 6 : c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
            if (bytes > max) {
                break;
            }
            if (c == '\n') {
                end = i + 1;
            }
        }
        if (bytes <= max) {
            return diff;
        }
        end = Math.max(end, 0);
        long rest = diff.substring(end).lines().count();
        return diff.substring(0, end) + "... (the diff is cut here: " + rest + " more lines past maxDiffBytes; "
                + (dryRun ? "nothing was written" : "the edit was applied whole") + ")\n";
    }

    /**
     * Applies the edits in order to text with {@code \n} line ends.
     *
     * @throws FsException naming the first edit whose text occurs nowhere or more than once
     * @throws InterruptedIOException when the call was stopped (its time is up): each edit searches the whole text
     */
    static String apply(String text, List<Edit> edits) throws FsException, InterruptedIOException {
        String result = text;
        for (int i = 0; i < edits.size(); i++) {
            if (Thread.interrupted()) {
                throw new InterruptedIOException("stopped before edit " + (i + 1) + " of " + edits.size());
            }
            Edit edit = edits.get(i);
            String oldText = edit.oldText().replace("\r\n", "\n");
            String newText = edit.newText().replace("\r\n", "\n");
            String which = edits.size() == 1 ? "The edit" : "Edit " + (i + 1) + " of " + edits.size();
            if (oldText.isEmpty()) {
                throw new FsException(which + " has an empty oldText; nothing was written.");
            }
            int at = find(result, oldText, 0);
            if (at < 0) {
                String hint = whitespaceHint(result, oldText);
                throw new FsException(which + ": oldText was not found; nothing was written." + hint
                        + " The text searched for:\n" + edit.oldText());
            }
            if (find(result, oldText, at + 1) >= 0) {
                int count = occurrences(result, oldText);
                throw new FsException(which + ": oldText occurs " + count + " times, so it is ambiguous; nothing was"
                        + " written. Include more surrounding lines so that it matches once. The text searched for:\n"
                        + edit.oldText());
            }
            result = result.substring(0, at) + newText + result.substring(at + oldText.length());
        }
        return result;
    }

    /** Texts up to this long are searched with {@link String#indexOf}: its worst case, length times this, is short. */
    private static final int SHORT = 64;

    /**
     * Where {@code part} first occurs in {@code text} from {@code from}, or -1. For a long {@code part} in time
     * linear in both ({@link #scan}), since {@code indexOf}'s worst case is their product (a 4 MB file, a 1 MB
     * oldText that nearly matches everywhere).
     */
    static int find(String text, String part, int from) throws InterruptedIOException {
        return part.length() <= SHORT ? text.indexOf(part, from) : scan(text, part, from, true);
    }

    /** How many times {@code part} occurs in {@code text}, overlapping occurrences included. */
    private static int occurrences(String text, String part) throws InterruptedIOException {
        if (part.length() > SHORT) {
            return scan(text, part, 0, false);
        }
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    /**
     * Knuth-Morris-Pratt from {@code from}: the first occurrence's index (-1: none) when {@code first}, else the
     * number of occurrences. Stops when the call is stopped (it looks every 64 Ki characters).
     */
    private static int scan(String text, String part, int from, boolean first) throws InterruptedIOException {
        int[] border = new int[part.length()];
        for (int i = 1, k = 0; i < part.length(); i++) {
            while (k > 0 && part.charAt(i) != part.charAt(k)) {
                k = border[k - 1];
            }
            if (part.charAt(i) == part.charAt(k)) {
                k++;
            }
            border[i] = k;
        }
        int count = 0;
        for (int i = Math.max(0, from), k = 0; i < text.length(); i++) {
            if ((i & 0xFFFF) == 0 && Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("stopped while searching the file");
            }
            while (k > 0 && text.charAt(i) != part.charAt(k)) {
                k = border[k - 1];
            }
            if (text.charAt(i) == part.charAt(k)) {
                k++;
            }
            if (k == part.length()) {
                if (first) {
                    return i - k + 1;
                }
                count++;
                k = border[k - 1];
            }
        }
        return first ? -1 : count;
    }

    /** A hint when the text occurs with other indentation or spacing. */
    private static String whitespaceHint(String text, String oldText) {
        String squeezed = oldText.strip().replaceAll("\\s+", " ");
        if (squeezed.isEmpty()) {
            return "";
        }
        String all = text.replaceAll("\\s+", " ");
        return all.contains(squeezed) ? " (It occurs with different whitespace or indentation: copy it exactly as"
                + " the file has it.)" : "";
    }
}
