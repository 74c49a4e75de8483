package io.quiver.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Tool metadata as service properties (prefix {@code mcp.tool.}). Put it on a DS component that
 * provides {@link Tool}; the catalog reads these properties without calling the tool.
 */
@ComponentPropertyType
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface McpTool {

    /** The property prefix. */
    String PREFIX_ = "mcp.tool.";

    /** Unique tool name clients call it by ({@code [A-Za-z0-9_.-]{1,128}}). */
    String name();

    /** Human-readable title. */
    String title() default "";

    /**
     * Icons clients may show for the tool, each its URL ({@code https:} or a {@code data:} URI) or, to say more,
     * a JSON object as MCP lists icons: {@code {"src":"https://example.com/t.svg","mimeType":"image/svg+xml",
     * "sizes":["any"],"theme":"dark"}} (theme {@code light} or {@code dark}). A malformed object refuses the tool.
     */
    String[] icons() default {};

    /** What the tool does, for the model. */
    String description() default "";

    /** JSON Schema (2020-12) of the arguments object, as JSON text. Ignored when {@link #arguments()} is set. */
    String inputSchema() default "{\"type\":\"object\"}";

    /**
     * A record type the arguments take; the input schema is generated from it (see
     * {@link io.quiver.api.schema.RecordSchemas}) and {@link ToolCall#arguments(Class)} converts to it.
     */
    Class<?> arguments() default Void.class;

    /** JSON Schema of {@code structuredContent}, as JSON text; empty for none. Ignored when {@link #output()} is set. */
    String outputSchema() default "";

    /** A record type of the structured output; the output schema is generated from it. */
    Class<?> output() default Void.class;

    /** Hint: the tool does not modify its environment. */
    boolean readOnlyHint() default false;

    /** Hint: the tool may perform destructive updates. */
    boolean destructiveHint() default true;

    /** Hint: calling it twice with the same arguments has no further effect. */
    boolean idempotentHint() default false;

    /** Hint: the tool reaches an open world of external entities. */
    boolean openWorldHint() default true;

    /**
     * Whether the tool may block: wait on I/O, a lock, another thread or a remote answer. A tool
     * declared {@code false} only computes (no I/O, no sleeping, no input requests); where the HTTP
     * transport's selector lane is on ({@code selectorLane}) it then runs on the thread that read the
     * request, with no hand-off: the fastest a call can be. A tool
     * declared non-blocking that asks for input gets an error instead of waiting. Default
     * {@code true}: the call runs on a thread that may wait (since 1.5).
     */
    boolean blocking() default true;

    /** Per-attempt timeout in milliseconds; 0 takes the server's default. */
    long timeoutMs() default 0;

    /**
     * What a user or model can do when the tool fails (check a credential, a path, a service):
     * added to the error a failed or timed-out call answers, which otherwise says only that it failed.
     */
    String troubleshootingHint() default "";

    /**
     * The tool's own {@code _meta}, as a JSON object in text; empty for none. Listed with the tool
     * (2025-06-18 and later) and shown to an embedding host with each call, e.g. a result-size hint
     * {@code {"anthropic/maxResultSizeChars": 200000}} (since 1.4).
     */
    String meta() default "";

    /**
     * Whether the tool runs as a task (the {@code io.modelcontextprotocol/tasks} extension of
     * 2026-07-28) for clients that declare the extension: {@code none} (always answers in the
     * call), {@code optional} (a task for clients that declare it, in the call for others) or
     * {@code required} (only as a task; other clients are told the extension is missing).
     */
    String taskSupport() default "none";

    /**
     * For task tools: the call starts in the request, not as a task, so the tool can gather its input
     * there first (multi-round {@code input_required}); once it has what it needs it returns
     * {@link Outcome#escalate()} and the rest runs as a task. (A tool that finishes instead is answered
     * with a task that is already completed.)
     */
    boolean inputBeforeTask() default false;
}
