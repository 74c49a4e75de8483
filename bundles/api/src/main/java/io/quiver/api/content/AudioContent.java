package io.quiver.api.content;

import java.util.Map;

/**
 * Audio: base64 data and its MIME type.
 *
 * @param data the base64-encoded data
 * @param mimeType its MIME type
 * @param annotations hints for the client, or {@code null}
 * @param meta the block's {@code _meta} (empty for none)
 */
public record AudioContent(String data, String mimeType, Annotations annotations, Map<String, Object> meta)
        implements Content {

    public AudioContent(String data, String mimeType) {
        this(data, mimeType, null, null);
    }

    public AudioContent(String data, String mimeType, Annotations annotations) {
        this(data, mimeType, annotations, null);
    }

    public AudioContent {
        meta = Meta.copy(meta);
    }

    @Override
    public String type() {
        return "audio";
    }
}
