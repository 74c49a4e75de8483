package io.quiver.core.internal.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quiver.api.content.Icon;
import java.util.List;

/** A resource link's icons only when it has some. */
interface ResourceLinkMixin {

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    List<Icon> icons();
}
