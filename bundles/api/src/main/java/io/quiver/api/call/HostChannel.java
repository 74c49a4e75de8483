package io.quiver.api.call;

import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A host application's say over every tool call, whoever the caller: it approves (or edits, or denies)
 * a call before it runs, may answer the tool's questions itself, may review the result before the
 * caller gets it, records what was delivered and is told when the call is over. Registered as an OSGi
 * service by the embedding host (never reachable over MCP); the highest-ranked one is used. Without
 * one, every valid call runs and the client answers the questions.
 *
 * <p>Its methods are called on the call's own thread and may block (a user deciding); the call's
 * timeout does not run meanwhile, but cancellation by the client does end the call.
 */
@ConsumerType
public interface HostChannel {

    /** Before the tool runs (once per call): approve, approve with edited arguments, or deny. */
    Admission admit(Invocation invocation);

    /**
     * The tool asks for input: the host may answer it; empty leaves it to the client (as without a
     * host).
     */
    default Optional<InputResponse> answer(Invocation invocation, InputRequest request) {
        return Optional.empty();
    }

    /** The tool's result before the caller gets it: the host may return another one. */
    default ToolResult review(Invocation invocation, ToolResult result) {
        return result;
    }

    /** The result as delivered: the host records it (after review and output limits). */
    default void record(Invocation invocation, ToolResult delivered) {
    }

    /** The call is over, however it ended: the host releases what it held for it. */
    default void release(Invocation invocation) {
    }
}
