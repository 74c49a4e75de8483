package io.quiver.api.content;

/** A content block of a tool result, prompt message or sampling message. */
public sealed interface Content permits TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource {

    /** The wire type: {@code text}, {@code image}, {@code audio}, {@code resource_link} or {@code resource}. */
    String type();
}
