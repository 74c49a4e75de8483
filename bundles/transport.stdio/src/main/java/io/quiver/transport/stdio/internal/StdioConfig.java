package io.quiver.transport.stdio.internal;

import io.quiver.lib.config.Max;
import io.quiver.lib.config.Min;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Settings of the stdio transport (PID {@code io.quiver.transport.stdio}), the single source of their
 * defaults. A change applies to the next line read; a value that is not valid keeps the last good one
 * and is listed as a problem.
 */
@ObjectClassDefinition(name = "Quiver stdio transport",
        description = "MCP over the process's stdin and stdout (quiver run --stdio): one JSON-RPC message per line")
public @interface StdioConfig {

    /** The configuration PID. */
    String PID = "io.quiver.transport.stdio";

    @AttributeDefinition(description = "Longest accepted message, one line of stdin, in bytes; a longer line is"
            + " answered with a -32600 error (id null) and skipped, and the next line is read")
    @Min(1024)
    @Max(1L << 30)
    long maxMessageBytes() default 4L << 20;
}
