package io.quiver.api.completion;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.osgi.service.component.annotations.ComponentPropertyType;

/** What a {@link Completer} completes, as service properties (prefix {@code mcp.completion.}). */
@ComponentPropertyType
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface McpCompletion {

    /** The property prefix. */
    String PREFIX_ = "mcp.completion.";

    /** {@code ref/prompt} or {@code ref/resource}. */
    String refType();

    /** The prompt name or the resource template URI. */
    String ref();
}
