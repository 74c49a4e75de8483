package io.quiver.api.content;

/** The contents of a resource: text or base64 binary. */
public sealed interface ResourceContents permits ResourceContents.Text, ResourceContents.Blob {

    /** The resource's URI. */
    String uri();

    /** Its MIME type, or {@code null}. */
    String mimeType();

    /** Text contents. */
    record Text(String uri, String mimeType, String text) implements ResourceContents {
    }

    /** Binary contents, base64-encoded. */
    record Blob(String uri, String mimeType, String blob) implements ResourceContents {
    }
}
