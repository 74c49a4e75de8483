package io.quiver.core.internal.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.quiver.api.content.AudioContent;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.ResourceLink;
import io.quiver.api.content.TextContent;
import java.util.Map;

/**
 * Maps the API's content records to MCP's {@code type}-tagged content blocks, each with its {@code _meta}
 * when it has one.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = TextContent.class, name = "text"),
    @JsonSubTypes.Type(value = ImageContent.class, name = "image"),
    @JsonSubTypes.Type(value = AudioContent.class, name = "audio"),
    @JsonSubTypes.Type(value = ResourceLink.class, name = "resource_link"),
    @JsonSubTypes.Type(value = EmbeddedResource.class, name = "resource")
})
interface ContentMixin {

    @JsonProperty("_meta")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    Map<String, Object> meta();
}
