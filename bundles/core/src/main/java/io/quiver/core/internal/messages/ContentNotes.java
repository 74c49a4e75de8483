package io.quiver.core.internal.messages;

import io.quiver.api.content.AudioContent;
import io.quiver.api.content.Content;
import io.quiver.api.content.ResourceLink;
import io.quiver.api.content.TextContent;
import java.util.List;

/**
 * Content blocks for clients of older revisions, which reject types they do not know: a resource link
 * (2025-06-18) becomes a text naming the resource, audio (2025-03-26) a text saying it is left out.
 */
final class ContentNotes {

    private ContentNotes() {
    }

    /** The block as a client of this revision can take it. */
    static Content forRevision(Content block, String version) {
        if (block instanceof ResourceLink link && !ProtocolVersions.atLeast(version, "2025-06-18")) {
            return new TextContent("[resource: " + link.uri() + "]");
        }
        if (block instanceof AudioContent && !ProtocolVersions.atLeast(version, "2025-03-26")) {
            return new TextContent("[audio content not shown: the client's protocol revision has no such content]");
        }
        return block;
    }

    /**
     * The blocks as a client of this revision can take them: the same list when none changes, as for every
     * call of 2025-06-18 and later.
     */
    static List<Content> forRevision(List<Content> blocks, String version) {
        for (int i = 0; i < blocks.size(); i++) {
            Content block = blocks.get(i);
            if (forRevision(block, version) != block) {
                return blocks.stream().map(b -> forRevision(b, version)).toList();
            }
        }
        return blocks;
    }
}
