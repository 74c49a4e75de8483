package io.quiver.core.internal.settings;

import io.quiver.lib.config.Max;
import io.quiver.lib.config.Min;
import io.quiver.lib.config.OneOf;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Settings of the protocol engine (PID {@code io.quiver.core}), the single source of their defaults.
 * Every setting applies to the running engine when its file changes, without dropping sessions or
 * streams; a value that is not valid keeps the last good one and is listed as a problem.
 */
@ObjectClassDefinition(name = "Quiver engine", description = "Protocol engine limits and identity")
public @interface EngineConfig {

    @AttributeDefinition(description = "Server name reported to clients")
    String serverName() default "quiver";

    @AttributeDefinition(description = "Instructions for the model, sent on initialize")
    String instructions() default "";

    @AttributeDefinition(description = "Default per-attempt tool timeout (ms)")
    @Min(1)
    long toolTimeoutMs() default 60_000;

    @AttributeDefinition(description = "Consecutive failures (thrown, timed out) after which a tool cools down: its calls"
            + " are answered at once with an error naming the cooldown, without running it; 0: never")
    @Min(0)
    int toolFailuresBeforeCooldown() default 5;

    @AttributeDefinition(description = "How long a tool cools down after toolFailuresBeforeCooldown failures (ms); the"
            + " first call after it runs the tool again, and one more failure starts another cooldown")
    @Min(1)
    long toolCooldownMs() default 30_000;

    @AttributeDefinition(description = "Tool attempts running at once")
    @Min(1)
    int maxConcurrentCalls() default 64;

    @AttributeDefinition(description = "Share of maxConcurrentCalls one tool may use at most (percent), unless"
            + " its own limits say otherwise; its further calls wait in its queue")
    @Min(1)
    @Max(100)
    int toolSharePercent() default 50;

    @AttributeDefinition(description = "Calls of one tool that may wait for its share; beyond it a call is answered"
            + " busy at once")
    @Min(0)
    int maxQueuedPerTool() default 64;

    @AttributeDefinition(description = "Requests served at once")
    @Min(1)
    int maxConcurrentRequests() default 256;

    @AttributeDefinition(description = "Requests (tool calls with their tools) served at once on the transport's own"
            + " thread, with no hand-off to the request and tool threads; beyond it they take those. Each holds a"
            + " thread of the HTTP server's pool (Jetty: 200) while it runs. 0: always hand off")
    @Min(0)
    int maxInlineRequests() default 64;

    @AttributeDefinition(description = "Requests that may wait for a thread before the server answers busy")
    @Min(1)
    int maxQueued() default 1024;

    @AttributeDefinition(description = "How long to wait for the client to answer elicitation or sampling (ms)")
    @Min(1)
    long clientRequestTimeoutMs() default 300_000;

    @AttributeDefinition(description = "How long a call waits for the embedding host's answer (admission, release,"
            + " input, review, recording) before it ends with an error: a host that stops answering (ms)")
    @Min(1)
    long hostTimeoutMs() default 300_000;

    @AttributeDefinition(description = "Idle sessions are closed after this long (ms)")
    @Min(1000)
    long sessionIdleTimeoutMs() default 3_600_000;

    @AttributeDefinition(description = "A session that sends nothing after its initialize for this long is closed (ms)")
    @Min(1000)
    long handshakeTimeoutMs() default 60_000;

    @AttributeDefinition(description = "Sessions open at once; 0 sizes it to the heap (20 per MiB of -Xmx, at least"
            + " 1000). A new session beyond it is refused with 503 and Retry-After")
    @Min(0)
    int maxSessions() default 0;

    @AttributeDefinition(description = "Sessions open at once from one client address; 0 is a quarter of maxSessions")
    @Min(0)
    int maxSessionsPerClient() default 0;

    @AttributeDefinition(description = "Sessions open at once of one authenticated subject (of its tenant and project);"
            + " 0 is a sixteenth of maxSessions. So that one key holder cannot take its address's or the server's"
            + " sessions from the others")
    @Min(0)
    int maxSessionsPerSubject() default 0;

    @AttributeDefinition(description = "2026-07-28 subscriptions/listen streams open at once; 0 is the session limit")
    @Min(0)
    int maxListeners() default 0;

    @AttributeDefinition(description = "Listen streams one authenticated subject (of its tenant and project) may keep open;"
            + " 0 is a sixteenth of maxListeners. So that one key holder cannot take every stream from the others")
    @Min(0)
    int maxListenersPerSubject() default 0;

    @AttributeDefinition(description = "Resource URIs one session may be subscribed to, and one 2026-07-28 listen stream may"
            + " name; a subscription beyond it is refused with -32602")
    @Min(1)
    int maxResourceSubscriptions() default 1000;

    @AttributeDefinition(description = "Longest resource URI a subscription (resources/subscribe, a listen stream's"
            + " resourceSubscriptions) may name, in characters; a longer one is refused with -32602")
    @Min(1)
    int maxResourceUriLength() default 4096;

    @AttributeDefinition(description = "Memory every session's and listen stream's resource subscriptions may hold"
            + " together (bytes: each URI's length and 100 more); 0 is a sixteenth of the heap limit. A subscription"
            + " beyond it is refused with -32000 (server busy)")
    @Min(0)
    long maxResourceSubscriptionBytes() default 0;

    @AttributeDefinition(description = "Items per page of tools/list, resources/list, prompts/list")
    @Min(1)
    int pageSize() default 100;

    @AttributeDefinition(description = "List changes within this window of a removal give one notification (ms); additions alone wait at most 25 ms")
    @Min(0)
    long listChangedDebounceMs() default 250;

    @AttributeDefinition(description = "How often one tool call may ask for input")
    @Min(0)
    int maxInputRounds() default 10;

    @AttributeDefinition(description = "Most messages one JSON-RPC batch may hold (2025-03-26 sessions, the one revision with batches); a larger batch is refused whole")
    @Min(1)
    int maxBatchSize() default 32;

    @AttributeDefinition(description = "Most bytes one tool call may return; text beyond it is cut with a marker")
    @Min(1)
    long maxOutputBytes() default 1L << 20;

    @AttributeDefinition(description = "On shutdown, how long calls in flight may finish before they are cancelled (ms);"
            + " at most 45 s, so that the stop is over within the launcher's stop timeout (60 s), past which it halts")
    @Min(0)
    @Max(45_000)
    long shutdownGraceMs() default 10_000;

    @AttributeDefinition(description = "2026-07-28 cache hint (ttlMs) on discover and list results")
    @Min(0)
    long listTtlMs() default 0;

    @AttributeDefinition(description = "2026-07-28 cache hint (ttlMs) on resource reads")
    @Min(0)
    long readTtlMs() default 0;

    @AttributeDefinition(description = "2026-07-28 cache scope of cacheable results: public or private")
    @OneOf({"public", "private"})
    String cacheScope() default "private";

    @AttributeDefinition(description = "Keys (at least 32 characters) that seal 2026-07-28 request state (AES-256-GCM);"
            + " the first seals, all open, so a new key goes first and the old one stays until its states expire. Empty: a random key"
            + " per start (state does not survive a restart or reach other instances)")
    String[] requestStateKeys() default {};

    @AttributeDefinition(description = "How long a 2026-07-28 request state stays valid (ms)")
    @Min(1)
    long requestStateTtlMs() default 600_000;

    @AttributeDefinition(description = "Tasks extension: how long a task is kept after it was created (ms)")
    @Min(1)
    long taskTtlMs() default 3_600_000;

    @AttributeDefinition(description = "Tasks extension: the timeout of one attempt of a task (ms)")
    @Min(1)
    long taskTimeoutMs() default 3_600_000;

    @AttributeDefinition(description = "Tasks extension: tasks kept at once; one authenticated subject keeps at most a"
            + " sixteenth of them, its oldest finished task making room for its next")
    @Min(1)
    int maxTasks() default 10_000;

    @AttributeDefinition(description = "Tasks extension: tasks one authenticated subject (of its tenant and project) may"
            + " have working or waiting for input at once; a task beyond it is refused with -32000 (server busy)")
    @Min(1)
    int maxTasksPerSubject() default 16;
}
