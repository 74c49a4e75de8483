package io.quiver.api.call;

import io.quiver.api.CallerIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One tool call from start to end, published once when it is over (a call that became a task: when
 * the task ends): every decision taken on the way and how it ended. For audit trails and metrics. A listener
 * that asks hears it once more, before its tool runs ({@link CallListener#running}, {@link Ending#RUNNING}).
 *
 * @param invocationId unique per call
 * @param caller who called
 * @param protocolVersion the revision it was served under
 * @param tool the tool's name as called
 * @param started when the call arrived
 * @param took how long it took until its answer
 * @param decisions the decisions in the order they were taken (policy, validation, admission, ...)
 * @param ending how it ended
 * @param detail a short explanation of the ending (an error text, a denial's reason), or {@code null}
 * @param clientName the name the client gave in its {@code clientInfo} (the session's, or a 2026-07-28
 *     request's {@code _meta}): {@code unknown} when it gave none, as in {@link io.quiver.api.ClientInfo};
 *     {@code null} when the engine knows no client. Self-declared: it names software, not a caller (since 1.1)
 * @param argumentsDigest {@code sha256:} and the lower-case hex SHA-256 of the arguments as the client
 *     sent them, in canonical JSON (object members sorted by name, no insignificant whitespace, UTF-8),
 *     or {@code null} when the request had none; lets an audit trail match calls without holding their
 *     values, which may be secrets (since 1.1)
 */
public record CallEvent(String invocationId, CallerIdentity caller, String protocolVersion, String tool,
        Instant started, Duration took, List<Step> decisions, Ending ending, String detail, String clientName,
        String argumentsDigest) {

    public CallEvent {
        decisions = List.copyOf(decisions);
    }

    /**
     * An event without the client's name or the arguments' digest: the constructor of 1.0, kept so that
     * code built against it (listeners' tests that make events) still links.
     */
    public CallEvent(String invocationId, CallerIdentity caller, String protocolVersion, String tool,
            Instant started, Duration took, List<Step> decisions, Ending ending, String detail) {
        this(invocationId, caller, protocolVersion, tool, started, took, decisions, ending, detail, null, null);
    }

    /** A decision on the way: which stage, and what it decided. */
    public record Step(String stage, boolean allowed, String reason) {
    }

    /** How a call ended. */
    public enum Ending {
        /** The tool's result was delivered (it may be an error the tool reported). */
        COMPLETED,
        /** The tool failed or timed out, or the call failed on the way: the caller got an error. */
        FAILED,
        /** The call was not valid (an unknown tool, invalid arguments): the tool never ran. */
        INVALID,
        /** The policy or the host refused it: the tool never ran (a policy's denial reads as an unknown tool). */
        DENIED,
        /** The tool's share of the server and its queue were full: the tool never ran. */
        BUSY,
        /** The call waits for input from the user (a 2026-07-28 client retries with it). */
        INPUT_REQUIRED,
        /** The client or the server stopped it (a task: cancelled, or past its TTL). */
        CANCELLED,
        /**
         * Not an ending: the call's tool is about to run. Only in the event given to
         * {@link CallListener#running}, never in one given to {@link CallListener#called} (since 1.4).
         */
        RUNNING
    }
}
