package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.AudioContent;
import io.quiver.api.content.Content;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.ResourceContents;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code read_media_file}: an image or audio file as MCP image or audio content; any other file as a blob resource. */
@Component(service = Tool.class)
@McpTool(name = "read_media_file",
        title = "Read Media File",
        description = "Read a file and return it as a base64-encoded content block with its MIME type. Image and"
                + " audio files are returned as image/audio content; any other file type is returned as an embedded"
                + " resource. Files larger than the server's media limit are refused. Only works within allowed"
                + " directories.",
        arguments = PathArgument.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ReadMediaFileTool implements Tool {

    /** MIME types by extension (those of the reference server, and a few more). */
    static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"), Map.entry("bmp", "image/bmp"),
            Map.entry("svg", "image/svg+xml"), Map.entry("avif", "image/avif"), Map.entry("ico", "image/x-icon"),
            Map.entry("tif", "image/tiff"), Map.entry("tiff", "image/tiff"), Map.entry("heic", "image/heic"),
            Map.entry("mp3", "audio/mpeg"), Map.entry("wav", "audio/wav"), Map.entry("ogg", "audio/ogg"),
            Map.entry("oga", "audio/ogg"), Map.entry("opus", "audio/opus"), Map.entry("flac", "audio/flac"),
            Map.entry("m4a", "audio/mp4"), Map.entry("aac", "audio/aac"), Map.entry("weba", "audio/webm"),
            Map.entry("pdf", "application/pdf"), Map.entry("zip", "application/zip"));

    private final Workspace workspace;

    @Activate
    public ReadMediaFileTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        PathArgument arguments = call.arguments(PathArgument.class);
        return workspace.run(call, sandbox -> read(sandbox, arguments.path()));
    }

    static ToolResult read(Sandbox sandbox, String path) throws FsException, IOException {
        long limit = sandbox.settings().maxMediaBytes();
        try (Entry entry = sandbox.locate(path, true);
                SeekableByteChannel channel = sandbox.openRead(entry)) {
            long size = channel.size();
            if (size > limit) {
                throw new FsException(entry.path() + " is " + TextFiles.size(size) + ", more than the media limit of "
                        + TextFiles.size(limit) + ".");
            }
            byte[] bytes = TextFiles.readAll(channel, limit, entry.path().toString());
            String data = Base64.getEncoder().encodeToString(bytes);
            String mimeType = mimeType(entry.path().getFileName().toString());
            Content block;
            if (mimeType.startsWith("image/")) {
                block = new ImageContent(data, mimeType);
            } else if (mimeType.startsWith("audio/")) {
                block = new AudioContent(data, mimeType);
            } else {
                block = new EmbeddedResource(new ResourceContents.Blob(entry.path().toUri().toString(), mimeType, data));
            }
            return ToolResult.of(block);
        }
    }

    static String mimeType(String name) {
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return TYPES.getOrDefault(extension, "application/octet-stream");
    }
}
