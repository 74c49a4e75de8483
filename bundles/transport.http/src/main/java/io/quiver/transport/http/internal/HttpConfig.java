package io.quiver.transport.http.internal;

import io.quiver.lib.config.Min;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Settings of the Streamable HTTP transport (PID {@code io.quiver.transport.http}), the single source of
 * their defaults. Every setting applies to the running transport when its file changes: sessions and
 * open streams stay (a new {@code path} serves new requests there; open streams keep their
 * connections). A value that is not valid keeps the last good one and is listed as a problem.
 */
@ObjectClassDefinition(name = "Quiver Streamable HTTP transport")
public @interface HttpConfig {

    @AttributeDefinition(description = "Endpoint path of the default tenant")
    String path() default "/mcp";

    @AttributeDefinition(description = "Endpoint path of named tenants: {tenant} stands for the tenant's name, as a whole"
            + " path segment (e.g. /brain/{tenant}/mcp); empty: only the default tenant is served. Either endpoint takes"
            + " an optional projectId query parameter. An authenticated caller may use its own tenant's endpoint only")
    String tenantPath() default "/t/{tenant}/mcp";

    @AttributeDefinition(description = "Host names accepted in Host and Origin besides localhost, 127.0.0.1 and [::1];"
            + " required to listen beyond loopback (--bind)")
    String[] allowedHosts() default {};

    @AttributeDefinition(description = "Origins accepted besides those on allowed hosts (* for any)")
    String[] allowedOrigins() default {};

    @AttributeDefinition(description = "This endpoint's public URL, the resource tokens must name in their audience"
            + " (e.g. https://mcp.example.com/mcp); served in the OAuth protected-resource metadata. Empty: the"
            + " URL the client used (scheme, Host header and path)")
    String resourceUrl() default "";

    @AttributeDefinition(description = "Issuer URLs of the OAuth authorization servers clients get tokens from,"
            + " named in the protected-resource metadata (RFC 9728)")
    String[] authorizationServers() default {};

    @AttributeDefinition(description = "OAuth scopes every authenticated request must carry (403 insufficient_scope"
            + " otherwise); empty: none required")
    String[] requiredScopes() default {};

    @AttributeDefinition(description = "Requests per second one authenticated subject may send, sustained (a token"
            + " bucket; beyond it 429 and Retry-After); 0: no limit. The unauthenticated local caller is not limited")
    @Min(0)
    double subjectRequestsPerSecond() default 50;

    @AttributeDefinition(description = "Requests one subject may send at once above its rate; 0: twice the rate")
    @Min(0)
    int subjectBurst() default 0;

    @AttributeDefinition(description = "Requests per second all subjects of one tenant may send together; 0: no limit")
    @Min(0)
    double tenantRequestsPerSecond() default 0;

    @AttributeDefinition(description = "Requests one tenant may send at once above its rate; 0: twice the rate")
    @Min(0)
    int tenantBurst() default 0;

    @AttributeDefinition(description = "Tool calls one authenticated subject may have in progress at once (beyond it"
            + " 429 and Retry-After); 0: no limit")
    @Min(0)
    int maxConcurrentCallsPerSubject() default 16;

    @AttributeDefinition(description = "Largest accepted request body in bytes (413 above)")
    @Min(1)
    long maxBodyBytes() default 4L << 20;

    @AttributeDefinition(description = "Of a body over maxBodyBytes, up to this many bytes are read and dropped so"
            + " the client hears its 413; beyond it the connection is closed at once")
    @Min(0)
    long maxDrainBytes() default 16L << 20;

    @AttributeDefinition(description = "A request body must arrive within this long (ms); a slower one gets 408 and"
            + " its connection is closed. Bodies are read without holding a thread meanwhile")
    @Min(100)
    long bodyTimeoutMs() default 30_000;

    @AttributeDefinition(description = "A request line and its headers must arrive within this long (ms); a slower"
            + " connection is closed (Jetty's own idle timeout counts only silence)")
    @Min(1000)
    long headerTimeoutMs() default 10_000;

    @AttributeDefinition(description = "Streams that stay open until their client leaves (session GET streams, 2026-07-28"
            + " listen streams); 0 sizes it to the heap (8 per MiB of -Xmx, at least 256). Beyond it: 503 and Retry-After."
            + " Streamed responses end with their answer and are bounded per session and by the engine's tool shares")
    @Min(0)
    int maxStreams() default 0;

    @AttributeDefinition(description = "SSE streams (its GET stream and streamed responses) one session may hold open"
            + " at once; beyond it: 503 and Retry-After")
    @Min(1)
    int maxStreamsPerSession() default 32;

    @AttributeDefinition(description = "Reconnection delay advertised to SSE clients (ms)")
    @Min(0)
    int sseRetryMs() default 3000;

    @AttributeDefinition(description = "Events kept per SSE stream of a session for resumption (a 2026-07-28 request's stream keeps none)")
    @Min(1)
    int sseBufferEvents() default 256;

    @AttributeDefinition(description = "Finished SSE streams kept per session for resumption")
    @Min(1)
    int sseRetainedStreams() default 32;

    @AttributeDefinition(description = "Interval of SSE keep-alive comments (ms)")
    @Min(1000)
    long sseKeepAliveMs() default 20_000;

    /** {@link #maxUnsentBytes}'s default: 4 MiB. */
    long DEFAULT_MAX_UNSENT_BYTES = 4L << 20;

    @AttributeDefinition(description = "Bytes one SSE connection may hold that its client has not read yet (beyond the"
            + " socket's own buffers). No thread waits for a client to read: what it has not taken waits here, and a"
            + " connection further behind is ended after the event on its way; the client resumes with Last-Event-ID"
            + " from the events the stream keeps (sseBufferEvents)")
    @Min(65_536)
    long maxUnsentBytes() default DEFAULT_MAX_UNSENT_BYTES;

    @AttributeDefinition(description = "Bytes all connections together may hold that their clients have not read"
            + " yet (answers and SSE events). Beyond it an SSE connection with events waiting is ended as above, and"
            + " a plain answer is written by its thread, which waits for the client as long as it must. 0: an"
            + " eighth of the heap, at least 16 MiB")
    @Min(0)
    long maxUnsentBytesTotal() default 0;

    @AttributeDefinition(description = "Serve MCP POSTs on the thread that read them (Felix HTTP's Jetty 12:"
            + " its plain HTTP connector, and its HTTPS one, are replaced by ones whose connections never block); what may wait (a"
            + " blocking tool's call, a streamed answer) goes to the call pool, other requests to Jetty's pool."
            + " false: Felix's own connector, every request on Jetty's pool")
    boolean selectorLane() default true;

    @AttributeDefinition(description = "With selectorLane: an MCP POST whose credential (if any is asked for) every authenticator checks without waiting, whose body came"
            + " with its headers and whose answer waits on nothing (a control method, a tool declared non-blocking),"
            + " is answered by a Jetty core handler ahead of the servlet, without the servlet layers; the rest takes"
            + " the servlet as before. It passes by servlet filters of other bundles on the MCP path: set false if"
            + " you have registered any")
    boolean coreLane() default true;

    @AttributeDefinition(description = "Threads kept to serve what the selector lane hands over (the call of a tool that"
            + " may block, a streamed answer), in order of arrival. 0: two per processor, at least four")
    @Min(0)
    int callThreads() default 0;

    @AttributeDefinition(description = "Most threads serving what the selector lane hands over; beyond callThreads more"
            + " are added each callThreadGrowMs while a request has waited that long and the process leaves CPU unused"
            + " (its tools block). Threads left in tools that ignore their timeout's interrupt give their places up to"
            + " new ones, up to as many again")
    @Min(1)
    int maxCallThreads() default 64;

    @AttributeDefinition(description = "How long a request the selector lane handed over may wait for a call thread"
            + " before another is started (ms)")
    @Min(1)
    long callThreadGrowMs() default 10;

    @AttributeDefinition(description = "Requests that may wait for a call thread; beyond it a call takes the engine's"
            + " threads, which answer busy when full, and a streamed answer is refused with 503")
    @Min(1)
    int maxQueuedCalls() default 1024;

    @AttributeDefinition(description = "Methods answered with an SSE stream from the start")
    String[] sseMethods() default {"tools/call"};

    @AttributeDefinition(description = "Close request streams still waiting after this long (ms) so the"
            + " client polls with Last-Event-ID; 0 keeps them open")
    @Min(0)
    long ssePollingMs() default 0;
}
