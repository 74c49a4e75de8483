package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.call.CallEvent;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.TextContent;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BoundOutputTest {

    private static CallToolResult wire(ToolResult result) {
        return CallToolResult.of(result, Json.MAPPER);
    }

    private static String text(CallToolResult result, int block) {
        return ((TextContent) result.content().get(block)).text();
    }

    @Test
    void aResultWithinTheLimitIsLeftAlone() {
        CallToolResult result = wire(ToolResult.text("short"));
        assertSame(result, BoundOutput.apply(result, 64));
        assertSame(result, BoundOutput.apply(result, 0));
    }

    @Test
    void textIsCutOnACharacterBoundaryWithAVisibleMarker() {
        CallToolResult cut = BoundOutput.apply(wire(ToolResult.text("éééé")), 5);
        assertEquals("éé\n[output truncated: the server's limit is 5 bytes]", text(cut, 0));
    }

    @Test
    void blocksPastTheLimitBecomeANote() {
        CallToolResult cut = BoundOutput.apply(wire(ToolResult.of(new TextContent("1234"),
                new ImageContent("QUJDREVGR0g=", "image/png"))), 6);
        assertEquals("1234", text(cut, 0));
        assertEquals("[image content omitted: the server's output limit is 6 bytes]", text(cut, 1));
    }

    /**
     * A flood of empty blocks is bounded too: past the first few each block's framing counts, and what does not
     * fit is one note (before, 550,000 empty text blocks went out as a 16.5 MB answer within a 1 MiB limit).
     */
    @Test
    void aFloodOfEmptyBlocksIsBoundedAndSummedUpInOneNote() {
        TextContent[] empty = new TextContent[550_000];
        java.util.Arrays.fill(empty, new TextContent(""));
        CallToolResult cut = BoundOutput.apply(wire(ToolResult.of(empty)), 1 << 20);
        int kept = cut.content().size();
        assertTrue(kept < 50_000, kept + " blocks kept");
        String note = text(cut, kept - 1);
        assertTrue(note.matches("\\[\\d+ more content blocks omitted: the server's output limit is 1048576 bytes]"), note);
        assertTrue(Json.MAPPER.writeValueAsBytes(cut.content()).length < 2 << 20, "about the limit on the wire");
    }

    @Test
    void structuredOutputPastTheLimitFailsTheCall() {
        Stages stages = new Stages().listening().tool("big", call -> Outcome.text("x"), null);
        BoundOutput bound = new BoundOutput(EngineSettings.of(Map.of("maxOutputBytes", 16)), new ToolLimitsRegistry());
        Call call = stages.resolved("big", "{}");
        CallToolResult result = bound.bound(call, ToolResult.structured(Map.of("data", "0123456789abcdef")));
        assertTrue(result.isError());
        assertTrue(text(result, 0).contains("exceeds the server's output limit of 16 bytes"), text(result, 0));
        assertEquals(CallEvent.Ending.FAILED, stages.over(call).ending());
    }
}
