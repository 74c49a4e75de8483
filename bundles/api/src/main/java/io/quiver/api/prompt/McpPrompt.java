package io.quiver.api.prompt;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.osgi.service.component.annotations.ComponentPropertyType;

/** Prompt metadata as service properties (prefix {@code mcp.prompt.}). */
@ComponentPropertyType
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface McpPrompt {

    /** The property prefix. */
    String PREFIX_ = "mcp.prompt.";

    /** Unique prompt name. */
    String name();

    /** Human-readable title. */
    String title() default "";

    /**
     * Icons clients may show for it, each its URL ({@code https:} or a {@code data:} URI) or a JSON object as MCP lists
     * icons, as for {@link io.quiver.api.McpTool#icons} (since 1.1).
     */
    String[] icons() default {};

    /** What the prompt is for. */
    String description() default "";
}
