package io.quiver.api.content;

import java.util.List;

/**
 * Hints to the client about how to use a content block or resource.
 *
 * @param audience who it is for ({@code user}, {@code assistant}), or {@code null}
 * @param priority 0 (least) to 1 (most important), or {@code null}
 * @param lastModified an ISO 8601 timestamp, or {@code null}
 */
public record Annotations(List<String> audience, Double priority, String lastModified) {
}
