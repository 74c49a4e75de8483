package io.quiver.api.content;

import java.util.Map;

/** The contents of a resource: text or base64 binary. */
public sealed interface ResourceContents permits ResourceContents.Text, ResourceContents.Blob {

    /** The resource's URI. */
    String uri();

    /** Its MIME type, or {@code null}. */
    String mimeType();

    /** Its {@code _meta}, empty for none. */
    Map<String, Object> meta();

    /** Text contents. */
    record Text(String uri, String mimeType, String text, Map<String, Object> meta) implements ResourceContents {

        public Text(String uri, String mimeType, String text) {
            this(uri, mimeType, text, null);
        }

        public Text {
            meta = Meta.copy(meta);
        }
    }

    /** Binary contents, base64-encoded. */
    record Blob(String uri, String mimeType, String blob, Map<String, Object> meta) implements ResourceContents {

        public Blob(String uri, String mimeType, String blob) {
            this(uri, mimeType, blob, null);
        }

        public Blob {
            meta = Meta.copy(meta);
        }
    }
}
