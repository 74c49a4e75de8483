package io.quiver.api.content;

/** Audio: base64 data and its MIME type. */
public record AudioContent(String data, String mimeType, Annotations annotations) implements Content {

    public AudioContent(String data, String mimeType) {
        this(data, mimeType, null);
    }

    @Override
    public String type() {
        return "audio";
    }
}
