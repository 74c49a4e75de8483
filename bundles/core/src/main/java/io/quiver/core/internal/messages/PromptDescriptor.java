package io.quiver.core.internal.messages;

import com.fasterxml.jackson.annotation.JsonView;
import io.quiver.api.content.Icon;
import java.util.List;

/** A prompt as {@code prompts/list} shows it; titles for clients of 2025-06-18 and later, icons
 * for 2025-11-25 and later. */
public record PromptDescriptor(String name, @JsonView(Views.R20250618.class) String title,
        @JsonView(Views.R20251125.class) List<Icon> icons,
        String description, List<Argument> arguments) {

    /** One argument of a prompt. */
    public record Argument(String name, String description, boolean required) {
    }
}
