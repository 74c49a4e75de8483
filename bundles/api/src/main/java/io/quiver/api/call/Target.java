package io.quiver.api.call;

import java.util.Objects;

/**
 * What a caller wants to see or use: a tool, a resource, a resource template or a prompt, by the
 * name clients use for it (a tool's or prompt's name, a resource's URI, a template's URI template).
 */
public record Target(Kind kind, String name) {

    /** The kinds of things a server lists. */
    public enum Kind {
        TOOL, RESOURCE, RESOURCE_TEMPLATE, PROMPT
    }

    public Target {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    public static Target tool(String name) {
        return new Target(Kind.TOOL, name);
    }

    public static Target resource(String uri) {
        return new Target(Kind.RESOURCE, uri);
    }

    public static Target resourceTemplate(String uriTemplate) {
        return new Target(Kind.RESOURCE_TEMPLATE, uriTemplate);
    }

    public static Target prompt(String name) {
        return new Target(Kind.PROMPT, name);
    }
}
