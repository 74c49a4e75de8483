package io.quiver.core.internal.pipeline;

import io.quiver.api.ToolResult;
import io.quiver.api.call.CallEvent;
import io.quiver.api.content.AudioContent;
import io.quiver.api.content.Content;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.ResourceLink;
import io.quiver.api.content.TextContent;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.settings.EngineSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Stage 7: bounds what one call may return (the tool's {@code maxOutputBytes}, else the server's): text
 * is cut at a UTF-8 character boundary with a visible marker, binary blocks past the limit are replaced
 * by a note, oversized structured content makes the call fail. The model always learns that something
 * was cut.
 */
final class BoundOutput {

    /** Blocks counted by their contents alone; each one after them counts {@link #BLOCK_FRAMING} bytes more. */
    static final int FREE_BLOCKS = 64;
    /** About what a block's JSON framing takes ({@code {"type":"text","text":""},}). */
    static final long BLOCK_FRAMING = 24;

    private final EngineSettings settings;
    private final ToolLimitsRegistry limits;

    BoundOutput(EngineSettings settings, ToolLimitsRegistry limits) {
        this.settings = settings;
        this.limits = limits;
    }

    /** The tool's result in its wire form, within the limit. */
    CallToolResult bound(Call call, ToolResult result) {
        long own = limits.of(call.name()).maxOutputBytes();
        CallToolResult wire = CallToolResult.of(result, call.tool().mapper().get());
        CallToolResult bounded = own > 0 ? apply(wire, own, "the tool's") : apply(wire, settings.config().maxOutputBytes());
        if (bounded.isError() && !result.isError()) {
            call.end(CallEvent.Ending.FAILED, "the structured output exceeds the output limit");
        }
        return bounded;
    }

    static CallToolResult apply(CallToolResult result, long limit) {
        return apply(result, limit, "the server's");
    }

    /** @param whose whose limit it is, as the result says it: {@code the server's}, {@code the tool's} */
    static CallToolResult apply(CallToolResult result, long limit, String whose) {
        if (limit <= 0) {
            return result;
        }
        long budget = limit;
        if (result.structuredContent() != null) {
            long size = Json.MAPPER.writeValueAsBytes(result.structuredContent()).length;
            if (size > limit) {
                return CallToolResult.error("The tool's structured output (" + size
                        + " bytes) exceeds " + whose + " output limit of " + limit + " bytes.");
            }
        }
        List<Content> kept = new ArrayList<>();
        boolean cut = false;
        int after = 0; // blocks past the one the cut fell in: one note for all of them
        int index = 0;
        for (Content block : result.content()) {
            // each block's framing counts too, past the first few: a flood of empty blocks is no small answer
            long size = size(block) + (index++ >= FREE_BLOCKS ? BLOCK_FRAMING : 0);
            if (!cut && size <= budget) {
                kept.add(block);
                budget -= size;
                continue;
            }
            if (cut) {
                after++;
                continue;
            }
            if (block instanceof TextContent text) {
                kept.add(new TextContent(truncate(text.text(), budget) + "\n[output truncated: " + whose + " limit is "
                        + limit + " bytes]", text.annotations(), text.meta()));
            } else {
                kept.add(new TextContent("[" + block.type() + " content omitted: " + whose + " output limit is "
                        + limit + " bytes]"));
            }
            cut = true;
            budget = 0;
        }
        if (after > 0) {
            kept.add(new TextContent("[" + after + " more content blocks omitted: " + whose + " output limit is "
                    + limit + " bytes]"));
        }
        return cut ? new CallToolResult(kept, result.structuredContent(), result.isError(), result.meta()) : result;
    }

    private static long size(Content block) {
        if (block instanceof TextContent t) {
            return t.text().getBytes(StandardCharsets.UTF_8).length;
        }
        if (block instanceof ImageContent i) {
            return i.data() == null ? 0 : i.data().length();
        }
        if (block instanceof AudioContent a) {
            return a.data() == null ? 0 : a.data().length();
        }
        if (block instanceof ResourceLink link) {
            return link.uri().length() + (link.name() == null ? 0 : link.name().length())
                    + (link.description() == null ? 0 : link.description().length());
        }
        if (block instanceof EmbeddedResource r) {
            ResourceContents c = r.resource();
            if (c instanceof ResourceContents.Text t) {
                return t.text() == null ? 0 : t.text().getBytes(StandardCharsets.UTF_8).length;
            }
            if (c instanceof ResourceContents.Blob b) {
                return b.blob() == null ? 0 : b.blob().length();
            }
        }
        return 256;
    }

    /** The longest prefix of {@code text} whose UTF-8 encoding fits in {@code bytes}. */
    static String truncate(String text, long bytes) {
        long used = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (used + len > bytes) {
                break;
            }
            used += len;
            i += Character.charCount(cp);
        }
        return text.substring(0, i);
    }
}
