package io.quiver.api.content;

import java.util.Map;

/**
 * An image: base64 data and its MIME type.
 *
 * @param data the base64-encoded data
 * @param mimeType its MIME type
 * @param annotations hints for the client, or {@code null}
 * @param meta the block's {@code _meta} (empty for none)
 */
public record ImageContent(String data, String mimeType, Annotations annotations, Map<String, Object> meta)
        implements Content {

    public ImageContent(String data, String mimeType) {
        this(data, mimeType, null, null);
    }

    public ImageContent(String data, String mimeType, Annotations annotations) {
        this(data, mimeType, annotations, null);
    }

    public ImageContent {
        meta = Meta.copy(meta);
    }

    @Override
    public String type() {
        return "image";
    }
}
