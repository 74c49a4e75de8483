package io.quiver.core.internal.messages;

import java.util.List;

/** A prompt as {@code prompts/list} shows it. */
public record PromptDescriptor(String name, String title, String description, List<Argument> arguments) {

    /** One argument of a prompt. */
    public record Argument(String name, String description, boolean required) {
    }
}
