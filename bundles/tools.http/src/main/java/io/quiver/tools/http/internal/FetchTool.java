package io.quiver.tools.http.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.Content;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.TextContent;
import java.io.IOException;
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code fetch}: a URL from the allowed hosts, HTML as Markdown, long content in pieces, like the reference
 * server {@code mcp-server-fetch}. Registered only while a host is allowed ({@link FetchSettings} enables
 * and disables the component); the settings in force are read at each call. Its HTTP client starts at the
 * first call and stops when the component goes (no host allowed any more, or the bundle stopping).
 */
@Component(service = Tool.class, enabled = false)
@McpTool(name = "fetch",
        title = "Fetch a web page",
        description = "Fetches a URL from the internet and optionally extracts its contents as markdown. "
                + "Although originally you did not have internet access, and were advised to refuse and tell the user"
                + " this, this tool now grants you internet access to the hosts this server's operator allowed (a"
                + " refusal names them). HTML is converted to Markdown (raw=true returns the HTML itself), other text"
                + " is returned as it is, binary content (images, PDFs) as an embedded resource. Long content comes in"
                + " pieces of max_length characters: when more follows, the result says which start_index to call"
                + " with next.",
        inputSchema = """
                {"type": "object",
                 "properties": {
                   "url": {"type": "string", "format": "uri", "description": "URL to fetch (http or https)"},
                   "max_length": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 1000000, "default": 5000,
                     "description": "Maximum number of characters to return."},
                   "start_index": {"type": "integer", "minimum": 0, "default": 0,
                     "description": "On return output starting at this character index, useful if a previous fetch was truncated and more context is required."},
                   "raw": {"type": "boolean", "default": false,
                     "description": "Get the actual HTML content of the requested page, without simplification."}},
                 "required": ["url"],
                 "additionalProperties": false}""",
        readOnlyHint = true, destructiveHint = false, idempotentHint = false, openWorldHint = true,
        troubleshootingHint = "The server's operator sets the hosts fetch may reach and its limits in"
                + " etc/io.quiver.tools.http.cfg.")
public final class FetchTool implements Tool {

    /** The default {@code max_length}, as in the reference server. */
    static final int DEFAULT_MAX_LENGTH = 5000;

    private final Supplier<Policy> policy;
    private final Fetcher fetcher;

    @Activate
    public FetchTool(@Reference FetchSettings settings) {
        this(settings::policy, Fetcher.standard());
    }

    FetchTool(Supplier<Policy> policy, Fetcher fetcher) {
        this.policy = policy;
        this.fetcher = fetcher;
    }

    @Deactivate
    void deactivate() {
        fetcher.close();
    }

    @Override
    public Outcome call(ToolCall call) {
        Map<String, Object> arguments = call.arguments();
        String url = arguments.get("url") instanceof String s ? s : "";
        int maxLength = arguments.get("max_length") instanceof Number n ? (int) Math.min(n.longValue(), 999_999)
                : DEFAULT_MAX_LENGTH;
        long startIndex = arguments.get("start_index") instanceof Number n ? n.longValue() : 0;
        boolean raw = Boolean.TRUE.equals(arguments.get("raw"));
        if (maxLength <= 0 || startIndex < 0) {
            return error("max_length must be at least 1 and start_index at least 0.");
        }
        Policy in = policy.get();
        if (!in.enabled()) {
            return error("Refused: this server allows fetching from no host (allowedHosts is empty).");
        }
        try {
            URI target = Fetcher.parse(url);
            Fetcher.Fetched fetched = fetcher.fetch(target, in, () -> call.context().isCancelled());
            return Outcome.done(result(target, fetched, in, startIndex, maxLength, raw));
        } catch (Fetcher.Failure e) {
            return error(e.getMessage());
        } catch (IOException e) {
            return error("Failed to read the content of " + url + ": " + e.getMessage());
        }
    }

    private static ToolResult result(URI requested, Fetcher.Fetched fetched, Policy policy, long startIndex,
            int maxLength, boolean raw) throws IOException {
        Pages.MediaType type = Pages.MediaType.of(fetched.contentType());
        Pages.Kind kind = Pages.kind(type, fetched.body());
        String shownType = type.mimeType() == null ? "unknown" : type.mimeType();
        String source = fetched.redirects().isEmpty() ? requested.toString()
                : requested + " (redirected to " + fetched.url() + ")";
        if (kind == Pages.Kind.BINARY) {
            if (fetched.cut() || fetched.body().length > policy.maxBinaryBytes()) {
                return ToolResult.error("Refused: " + source + " is binary content (" + shownType + ") of more than "
                        + policy.maxBinaryBytes() + " bytes (maxBinaryBytes); binary content is returned whole or not"
                        + " at all.");
            }
            String mime = type.mimeType() == null ? "application/octet-stream" : type.mimeType();
            String text = "Contents of " + source + ": " + fetched.body().length + " bytes of " + mime
                    + ", binary, attached as an embedded resource (start_index and max_length do not apply).";
            List<Content> content = List.of(new TextContent(text), new EmbeddedResource(new ResourceContents.Blob(
                    fetched.url().toString(), mime, Base64.getEncoder().encodeToString(fetched.body()))));
            return new ToolResult(content, null, false, Map.of());
        }
        String prefix;
        String content;
        if (kind == Pages.Kind.HTML && !raw) {
            prefix = "";
            content = Pages.markdown(type, fetched.body(), fetched.url().toString());
        } else {
            prefix = "Content type " + shownType + " cannot be simplified to markdown, but here is the raw content:\n";
            content = Pages.text(type, fetched.body());
        }
        String cut = fetched.cut() ? "[The response was larger than " + policy.maxBytes() + " bytes (maxBytes); only"
                + " its first " + policy.maxBytes() + " bytes were read, so the content below ends early.]\n" : "";
        if (content.isBlank() && startIndex == 0) {
            String none = kind == Pages.Kind.HTML && !raw
                    ? "(The page has no text once scripts and styles are left out: it may be built by JavaScript, which"
                            + " fetch does not run. raw=true returns its HTML.)"
                    : "(The response has no content.)";
            return ToolResult.text(prefix + cut + "Contents of " + source + ":\n" + none);
        }
        Paging.Piece piece = Paging.piece(content, startIndex, maxLength);
        if (piece == null) {
            return ToolResult.error("<error>No more content available.</error> The content of " + source + " is "
                    + content.codePointCount(0, content.length()) + " characters long; start_index " + startIndex
                    + " is past its end.");
        }
        return ToolResult.text(prefix + cut + "Contents of " + source + ":\n" + piece.text());
    }

    private static Outcome error(String text) {
        return Outcome.done(ToolResult.error(text));
    }
}
