package io.quiver.tools.fs.internal;

import io.quiver.api.schema.Description;

/** The arguments of the tools that take one path. */
@Description("One path")
public record PathArgument(
        @Description("The path: absolute, or relative to the first allowed root (see list_allowed_directories)")
        String path) {
}
