package io.quiver.api.resource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.osgi.service.component.annotations.ComponentPropertyType;

/** Resource metadata as service properties (prefix {@code mcp.resource.}). */
@ComponentPropertyType
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface McpResource {

    /** The property prefix. */
    String PREFIX_ = "mcp.resource.";

    /** The resource's URI. */
    String uri();

    /** A short name. */
    String name();

    /** Human-readable title. */
    String title() default "";

    /**
     * Icons clients may show for it, each its URL ({@code https:} or a {@code data:} URI) or a JSON object as MCP lists
     * icons, as for {@link io.quiver.api.McpTool#icons} (since 1.1).
     */
    String[] icons() default {};

    /** What it holds. */
    String description() default "";

    /** Its MIME type. */
    String mimeType() default "";
}
