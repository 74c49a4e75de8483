package io.quiver.core.internal.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.quiver.api.content.AudioContent;
import io.quiver.api.content.Content;
import io.quiver.api.content.ResourceLink;
import io.quiver.api.content.TextContent;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContentNotesTest {

    private final List<Content> plain = List.of(new TextContent("hello"));
    private final List<Content> mixed = List.of(new TextContent("hello"), new AudioContent("YXVk", "audio/wav"),
            new ResourceLink("test://static", "static", "text/plain"));

    @Test
    void blocksEveryRevisionTakesAreAnsweredAsTheyAre() {
        CallToolResult result = new CallToolResult(plain, null, false, null);
        for (String revision : List.of("2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28")) {
            assertSame(plain, ContentNotes.forRevision(plain, revision), revision);
            assertSame(result, result.forRevision(revision), revision);
        }
        assertSame(mixed, ContentNotes.forRevision(mixed, "2025-06-18"));
    }

    @Test
    void blocksAnOlderRevisionLacksBecomeNotes() {
        CallToolResult shown = new CallToolResult(mixed, null, false, null).forRevision("2024-11-05");
        assertEquals(List.of(new TextContent("hello"),
                new TextContent("[audio content not shown: the client's protocol revision has no such content]"),
                new TextContent("[resource: test://static]")), shown.content());
        assertEquals(List.of(mixed.get(0), mixed.get(1), new TextContent("[resource: test://static]")),
                ContentNotes.forRevision(mixed, "2025-03-26"));
    }
}
