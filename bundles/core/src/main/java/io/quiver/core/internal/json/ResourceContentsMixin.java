package io.quiver.core.internal.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.quiver.api.content.ResourceContents;
import java.util.Map;

/** Text or blob resource contents, told apart by their fields as MCP does. */
@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
@JsonSubTypes({
    @JsonSubTypes.Type(ResourceContents.Text.class),
    @JsonSubTypes.Type(ResourceContents.Blob.class)
})
interface ResourceContentsMixin {

    @JsonProperty("_meta")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    Map<String, Object> meta();
}
