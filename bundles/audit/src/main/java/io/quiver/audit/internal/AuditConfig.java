package io.quiver.audit.internal;

import io.quiver.lib.config.Min;
import io.quiver.lib.config.OneOf;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Settings of the audit trail (PID {@code io.quiver.audit}), the single source of their defaults. Every
 * setting applies to the running server when its file changes; a value that is not valid keeps the last
 * good one and is listed as a problem.
 */
@ObjectClassDefinition(name = "Quiver audit trail",
        description = "Every tool call as one JSON line in a file, rotated by size and day, and as an Event Admin"
                + " event")
public @interface AuditConfig {

    /** The configuration PID. */
    String PID = "io.quiver.audit";

    /** The file when none is configured: the shell's quiver:audit looks there too. */
    String DEFAULT_FILE = "audit/calls.jsonl";

    @AttributeDefinition(description = "Write the audit file (Event Admin events are posted either way, for the"
            + " bundles that listen)")
    boolean enabled() default true;

    @AttributeDefinition(description = "The audit file; a relative path is under the server's working directory."
            + " Rotated files sit next to it as <name>-<UTC time of rotation>.<extension>")
    String file() default DEFAULT_FILE;

    @AttributeDefinition(description = "The file is rotated before a line would take it past this size (bytes)")
    @Min(1024)
    long maxFileBytes() default 64L << 20;

    @AttributeDefinition(description = "Also rotate on the first line of a new day (UTC), or only by size (none)")
    @OneOf({"daily", "none"})
    String rotateEvery() default "daily";

    @AttributeDefinition(description = "Rotated files kept besides the current one; the oldest beyond are deleted")
    @Min(1)
    int maxFiles() default 14;

    @AttributeDefinition(description = "A call whose tool is still running this long (ms) after it began gets a line"
            + " of its own (ending RUNNING) before the line of its end, so that a call in flight when the server is"
            + " killed is on record; 0: every call still running when the writer next looks (within ~50 ms); -1:"
            + " none")
    @Min(-1)
    long runningAfterMs() default 1000;
}
