package io.quiver.api.content;

/** A resource's contents embedded in a result or message. */
public record EmbeddedResource(ResourceContents resource, Annotations annotations) implements Content {

    public EmbeddedResource(ResourceContents resource) {
        this(resource, null);
    }

    @Override
    public String type() {
        return "resource";
    }
}
