package io.quiver.core.internal.messages;

/** A resource template as {@code resources/templates/list} shows it. */
public record TemplateDescriptor(String uriTemplate, String name, String title, String description, String mimeType) {
}
