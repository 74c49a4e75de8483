package io.quiver.api.content;

/** A link to a resource the client may read. */
public record ResourceLink(String uri, String name, String title, String description, String mimeType, Long size,
        Annotations annotations) implements Content {

    public ResourceLink(String uri, String name, String mimeType) {
        this(uri, name, null, null, mimeType, null, null);
    }

    @Override
    public String type() {
        return "resource_link";
    }
}
