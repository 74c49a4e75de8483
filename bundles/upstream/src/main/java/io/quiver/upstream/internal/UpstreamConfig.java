package io.quiver.upstream.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

import io.quiver.lib.config.Max;
import io.quiver.lib.config.Min;
import io.quiver.lib.config.OneOf;

/**
 * Quiver's own settings for one upstream server (factory PID {@code io.quiver.upstream}, a file
 * {@code etc/io.quiver.upstream-NAME.cfg} per server), the single source of their defaults. A server of
 * {@code mcp-servers.json} without such a file runs with these defaults. A value that is not valid keeps
 * the default and is listed as a problem.
 */
@ObjectClassDefinition(name = "Quiver upstream MCP server",
        description = "How Quiver runs and exposes one server of etc/mcp-servers.json (or a *.mcp.json file)")
public @interface UpstreamConfig {

    /** The factory PID. */
    String PID = "io.quiver.upstream";

    @AttributeDefinition(description = "The server these settings are for: its key in mcpServers (default: the"
            + " configuration's name, the NAME of io.quiver.upstream-NAME.cfg)")
    String server() default "";

    @AttributeDefinition(description = "Run the server and list its tools (false: declared but stopped)")
    boolean enabled() default true;

    @AttributeDefinition(description = "What each tool's name starts with, followed by a dot (default: the server's"
            + " name; '-' for none: the upstream's own names)")
    String prefix() default "";

    @AttributeDefinition(description = "Globs of the upstream's tool names (before the prefix) to expose; empty: all")
    String[] include() default {};

    @AttributeDefinition(description = "Globs of the upstream's tool names not to expose; wins over include")
    String[] exclude() default {};

    @AttributeDefinition(description = "Expose the server's prompts (when it offers them) as PREFIX.name, like its tools")
    boolean prompts() default true;

    @AttributeDefinition(description = "Expose the server's resources and resource templates (when it offers them) under"
            + " their own URIs")
    boolean resources() default true;

    @AttributeDefinition(description = "The most resources and resource templates exposed from the server (together);"
            + " those its listing gives beyond are left out, with a warning")
    @Min(0)
    @Max(100_000)
    int maxResources() default 1_000;

    @AttributeDefinition(description = "Most tools registered for this server (after include and exclude); those its"
            + " listing gives beyond are left out, with a warning")
    @Min(0)
    @Max(100_000)
    int maxTools() default 1_000;

    @AttributeDefinition(description = "Most prompts registered for this server; those its listing gives beyond are"
            + " left out, with a warning")
    @Min(0)
    @Max(100_000)
    int maxPrompts() default 1_000;

    @AttributeDefinition(description = "How long the server may take to start and answer initialize and its lists (ms)")
    @Min(100)
    long startupTimeoutMs() default 30_000;

    @AttributeDefinition(description = "How long one call may take before it is cancelled upstream and answered with"
            + " an error (ms); 0 takes the server's default tool timeout")
    @Min(0)
    long callTimeoutMs() default 0;

    @AttributeDefinition(description = "When a stopped or crashed server is started again: on-failure (after a crash"
            + " or a failed start), always (also after a clean exit), never")
    @OneOf({"on-failure", "always", "never"})
    String restart() default "on-failure";

    @AttributeDefinition(description = "Restarts in a row (without a minute of steady running between them) before"
            + " Quiver gives up and reports the server failed; its file edited starts it afresh")
    @Min(0)
    int maxRestarts() default 5;

    @AttributeDefinition(description = "The wait before the first restart (ms); it doubles with each restart in a row")
    @Min(10)
    long backoffMs() default 1_000;

    @AttributeDefinition(description = "The longest wait between restarts (ms)")
    @Min(10)
    long maxBackoffMs() default 60_000;

    @AttributeDefinition(description = "The tenants whose callers see the server's tools (empty: every tenant)")
    String[] tenants() default {};

    @AttributeDefinition(description = "shared: one process for every tenant listed (or all); per-tenant: one process"
            + " per tenant of tenants, each seen only by its tenant, with {tenant} in its command, args, env, cwd, the path"
            + " or query of its url, and headers replaced by the tenant's name, and QUIVER_TENANT in its environment")
    @OneOf({"shared", "per-tenant"})
    String instances() default "shared";

    @AttributeDefinition(description = "The projects whose callers see the server's tools (empty: every project)")
    String[] projects() default {};

    @AttributeDefinition(description = "Lines of the server's stderr kept for the shell and the admin tools")
    @Min(1)
    @Max(10_000)
    int stderrLines() default 200;

    @AttributeDefinition(description = "The longest message read from a server (bytes): a stdio server's line on"
            + " stdout (longer: a protocol failure that restarts the server); over HTTP a JSON answer, an event's"
            + " data or one line of a stream (longer: the request fails saying so)")
    @Min(1024)
    int maxMessageBytes() default 16 << 20;
}
