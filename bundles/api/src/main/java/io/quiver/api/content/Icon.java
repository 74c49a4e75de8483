package io.quiver.api.content;

import java.util.List;
import java.util.Objects;

/**
 * An icon a client may show for a resource link.
 *
 * @param src its URL ({@code https:} or a {@code data:} URI)
 * @param mimeType its MIME type, or {@code null}
 * @param sizes the sizes it is drawn for ({@code 48x48}, {@code any}), or {@code null}
 * @param theme {@code light} or {@code dark} when it is made for one, or {@code null}
 */
public record Icon(String src, String mimeType, List<String> sizes, String theme) {

    public Icon(String src) {
        this(src, null, null, null);
    }

    public Icon {
        Objects.requireNonNull(src, "src");
        sizes = sizes == null ? null : List.copyOf(sizes);
    }
}
