package io.quiver.core.internal.messages;

/** The answer to {@code initialize}. */
public record InitializeResult(String protocolVersion, ServerCapabilities capabilities, Implementation serverInfo,
        String instructions) implements Result {
}
