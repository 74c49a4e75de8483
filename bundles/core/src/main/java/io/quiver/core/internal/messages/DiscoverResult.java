package io.quiver.core.internal.messages;

import java.util.List;

/** The answer to {@code server/discover} (stateless era). */
public record DiscoverResult(List<String> supportedVersions, ServerCapabilities capabilities, String instructions)
        implements Result {
}
