package io.quiver.api.content;

import java.util.Objects;

/** Plain text. */
public record TextContent(String text, Annotations annotations) implements Content {

    public TextContent(String text) {
        this(text, null);
    }

    public TextContent {
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
        return "text";
    }
}
