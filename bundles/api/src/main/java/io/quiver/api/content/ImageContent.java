package io.quiver.api.content;

/** An image: base64 data and its MIME type. */
public record ImageContent(String data, String mimeType, Annotations annotations) implements Content {

    public ImageContent(String data, String mimeType) {
        this(data, mimeType, null);
    }

    @Override
    public String type() {
        return "image";
    }
}
