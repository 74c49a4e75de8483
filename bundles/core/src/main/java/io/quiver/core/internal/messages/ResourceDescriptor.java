package io.quiver.core.internal.messages;

/** A fixed resource as {@code resources/list} shows it. */
public record ResourceDescriptor(String uri, String name, String title, String description, String mimeType) {
}
