package io.quiver.api.resource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.osgi.service.component.annotations.ComponentPropertyType;

/** Resource template metadata as service properties (prefix {@code mcp.template.}). */
@ComponentPropertyType
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface McpResourceTemplate {

    /** The property prefix. */
    String PREFIX_ = "mcp.template.";

    /** The RFC 6570 URI template. */
    String uriTemplate();

    /** A short name. */
    String name();

    /** Human-readable title. */
    String title() default "";

    /**
     * Icons clients may show for them, each its URL ({@code https:} or a {@code data:} URI) or a JSON object as MCP
     * lists icons, as for {@link io.quiver.api.McpTool#icons} (since 1.1).
     */
    String[] icons() default {};

    /** What the resources hold. */
    String description() default "";

    /** Their MIME type. */
    String mimeType() default "";
}
