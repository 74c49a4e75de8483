package io.quiver.api.prompt;

/** One argument of a prompt. */
public record PromptArgument(String name, String description, boolean required) {
}
