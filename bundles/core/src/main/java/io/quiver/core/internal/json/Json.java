package io.quiver.core.internal.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quiver.api.content.Content;
import io.quiver.api.content.ResourceContents;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the engine: records and maps in, compact JSON out, nulls left out. */
public final class Json {

    /** Shared, immutable and thread-safe. */
    public static final JsonMapper MAPPER = JsonMapper.builder()
            .changeDefaultPropertyInclusion(incl -> JsonInclude.Value.construct(
                    JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
            // properties without a view are written in every view (the revision views mark only the newer ones)
            .enable(MapperFeature.DEFAULT_VIEW_INCLUSION)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .addMixIn(Content.class, ContentMixin.class)
            .addMixIn(ResourceContents.class, ResourceContentsMixin.class)
            .build();

    private Json() {
    }
}
