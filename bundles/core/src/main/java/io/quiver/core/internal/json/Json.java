package io.quiver.core.internal.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quiver.api.content.Content;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.ResourceLink;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the engine: records and maps in, compact JSON out, nulls left out. */
public final class Json {

    /**
     * The stream factory of every mapper of the engine: buffers are recycled per thread. Jackson's
     * default pool is a concurrent deque every parser and generator takes from and gives back to, and
     * was a tenth of a trivial call's time in a profile; the engine's threads are few and long-lived.
     */
    public static final JsonFactory FACTORY = JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.threadLocalPool())
            .build();

    /** Shared, immutable and thread-safe. */
    public static final JsonMapper MAPPER = JsonMapper.builder(FACTORY)
            .changeDefaultPropertyInclusion(incl -> JsonInclude.Value.construct(
                    JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
            // properties without a view are written in every view (the revision views mark only the newer ones)
            .enable(MapperFeature.DEFAULT_VIEW_INCLUSION)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            // a key twice in one object is refused, not read as its last value: a gateway or log that reads the
            // first ("name": "read_file", ..., "name": "delete_file") would see another call than the one that runs.
            // Free: the tree finds the duplicate as it puts the second value.
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .addMixIn(Content.class, ContentMixin.class)
            .addMixIn(ResourceContents.class, ResourceContentsMixin.class)
            .addMixIn(ResourceLink.class, ResourceLinkMixin.class)
            .build();

    private Json() {
    }
}
