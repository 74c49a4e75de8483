package io.quiver.core.internal.messages;

import io.quiver.api.content.ResourceContents;
import java.util.List;

/** The answer to {@code resources/read}. */
public record ReadResourceResult(List<ResourceContents> contents) implements Result {
}
