package io.quiver.api.call;

import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.Optional;
import java.util.function.Consumer;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A host application's say over every tool call, whoever the caller: it is told when a call begins
 * (with a way to stop it), approves (or edits, or denies) it before it runs, releases it when its plan
 * says so, may answer the tool's questions itself, reviews the result before the caller gets it,
 * records what is delivered and is told when the call is over. Without one, every valid call runs and
 * the client answers the questions.
 *
 * <p>Only the embedding host provides one: the engine uses a registered {@code HostChannel} only when
 * the bundle that registered it is one the embedder allowed (the framework property
 * {@code quiver.host.bundles}, symbolic names, by default the launcher's {@code io.quiver.host}
 * bridge); any other is ignored and logged. It is never reachable over MCP. This is a guard against a
 * bundle taking the host's role by mistake, not a sandbox: code inside the framework can do anything.
 *
 * <p>Its methods are called on the call's own thread and may block (a user deciding); the call's
 * timeout does not run meanwhile, but the host's own ({@code hostTimeoutMs} of the engine's
 * configuration) does: a host that does not answer in time ends the call with an error, and the tool
 * does not run (or its result is not delivered). Cancellation by the client ends the call too.
 */
@ConsumerType
public interface HostChannel {

    /**
     * The property ({@code true}) of the marker service the engine ({@code io.quiver.core}) registers
     * while a host channel it accepted is in force: a policy that depends on a host being there follows
     * that marker, not the host channel services, which the engine may have ignored (since 1.2).
     */
    String IN_FORCE = "io.quiver.host.inForce";

    /**
     * The call has begun (it is resolved and its arguments valid; before {@link #admit}). {@code stop}
     * ends it from the host's side at any time until it is over, with a reason the caller reads in an
     * error result: a call waiting for the host is not run, a running tool is interrupted, a result not
     * yet delivered is not. A stopped call is never run again. Calling {@code stop} after the call is
     * over does nothing (since 1.2).
     */
    default void begin(Invocation invocation, Consumer<String> stop) {
    }

    /** Before the tool runs (once per call): approve, approve with edited arguments, or deny. */
    Admission admit(Invocation invocation);

    /**
     * The call is prepared (resolved, validated, admitted): return when it may run. A host that runs
     * calls by a plan of its own holds them here and releases each when its turn comes. {@code false}:
     * it never runs, and the caller is told it was not released (since 1.2).
     */
    default boolean awaitRelease(Invocation invocation) {
        return true;
    }

    /**
     * The tool asks for input: the host may answer it; empty leaves it to the client (as without a
     * host).
     */
    default Optional<InputResponse> answer(Invocation invocation, InputRequest request) {
        return Optional.empty();
    }

    /**
     * The tool's result before the caller gets it: the host may deliver it (return it), replace it
     * (return another one), or withhold it (return an error result saying why). The caller gets what
     * this returns, never the result before it.
     */
    default ToolResult review(Invocation invocation, ToolResult result) {
        return result;
    }

    /**
     * The result as it will be delivered (after review and output limits): the host records it before
     * the caller gets it. A recording that fails (this throws) fails the delivery: the caller gets an
     * error result saying the result could not be recorded, never the unrecorded result; it reads the reason
     * of a {@link RecordingFailed}, and of anything else only that the host failed.
     */
    default void record(Invocation invocation, ToolResult delivered) {
    }

    /** The call is over, however it ended: the host releases what it held for it. */
    default void release(Invocation invocation) {
    }

    /**
     * The call is over, with how it ended: {@code event} is the one every {@link CallListener} hears, its
     * {@link CallEvent#ending() ending}, its {@link CallEvent#detail() detail} (a denial's reason, an error's
     * text: for a failure inside the server, the exception the log has, which the caller does not read) and the
     * decisions on the way. What the caller got was recorded first ({@link #record}) when a result was
     * delivered: completed, or failed when the tool failed or timed out and the caller got that error. A call
     * that delivered no result (denied, not released, stopped, cancelled, a recording that failed or came too
     * late, a host that did not answer in time) ends only here, and this is where a host that keeps every call
     * it took part in stores it; one stopped or cancelled right after its record says so here too. Called once
     * per call the host took part in (it was asked to admit it), in place of {@link #release(Invocation)},
     * which is what this does unless overridden (since 1.5).
     */
    default void over(Invocation invocation, CallEvent event) {
        release(invocation);
    }
}
