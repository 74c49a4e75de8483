package io.quiver.api.content;

import java.util.Map;

/** A content block of a tool result, prompt message or sampling message. */
public sealed interface Content permits TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource {

    /** The wire type: {@code text}, {@code image}, {@code audio}, {@code resource_link} or {@code resource}. */
    String type();

    /** The block's {@code _meta}, written as it is; empty for none. */
    Map<String, Object> meta();
}
