package io.quiver.api.prompt;

import io.quiver.api.content.Content;

/** One message of a rendered prompt; {@code role} is {@code user} or {@code assistant}. */
public record PromptMessage(String role, Content content) {
}
