package io.quiver.api.content;

import java.util.Map;
import java.util.Objects;

/**
 * Plain text.
 *
 * @param text the text
 * @param annotations hints for the client, or {@code null}
 * @param meta the block's {@code _meta} (empty for none)
 */
public record TextContent(String text, Annotations annotations, Map<String, Object> meta) implements Content {

    public TextContent(String text) {
        this(text, null, null);
    }

    public TextContent(String text, Annotations annotations) {
        this(text, annotations, null);
    }

    public TextContent {
        Objects.requireNonNull(text, "text");
        meta = Meta.copy(meta);
    }

    @Override
    public String type() {
        return "text";
    }
}
