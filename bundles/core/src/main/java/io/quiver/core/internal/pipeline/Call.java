package io.quiver.core.internal.pipeline;

import io.quiver.api.ClientInfo;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Invocation;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.request.RequestScope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@code tools/call} on its way through the stages: what each stage found (the tool, the arguments
 * as admitted), the decisions taken, and how it ended. A task carries it on after the request is
 * answered; the {@link Record} stage publishes it once the call is over.
 */
final class Call {

    private final String name;
    /** When the call arrived; the wall-clock time is worked out only for an event (most calls have no listener). */
    private final long startNanos = System.nanoTime();
    private final List<CallEvent.Step> steps = new ArrayList<>(4);
    /** The arguments as the client sent them, or null: the event's digest is of these, not of a host's edit. */
    private final ObjectNode received;
    private RequestScope scope;
    private ToolEntry tool;
    private ObjectNode arguments;
    private Invocation invocation;
    private HostChannel host;
    private volatile boolean escalated;
    private CallEvent.Ending ending = CallEvent.Ending.COMPLETED;
    private String detail;
    /** When the call arrived and the digest of its received arguments, as both its events say them (set with the first). */
    private Instant arrived;
    private String digest;
    private boolean ended;
    private volatile Consumer<CallToolResult> takeOver;

    Call(RequestScope scope, String name, ObjectNode arguments) {
        this.scope = scope;
        this.name = name;
        this.received = arguments;
        this.arguments = arguments == null ? Json.MAPPER.createObjectNode() : arguments;
    }

    String name() {
        return name;
    }

    RequestScope scope() {
        return scope;
    }

    /** The call goes on as a task: from now on it runs in the task's own scope. */
    void handOff(RequestScope taskScope) {
        this.scope = taskScope;
    }

    ToolEntry tool() {
        return tool;
    }

    void tool(ToolEntry resolved) {
        this.tool = resolved;
    }

    ObjectNode arguments() {
        return arguments;
    }

    /** The arguments the host edited: they replace the client's. */
    void arguments(ObjectNode edited) {
        this.arguments = edited;
        this.invocation = null;
    }

    /** The call as the host channel sees it. */
    synchronized Invocation invocation() {
        if (invocation == null) {
            Map<String, Object> args = map(arguments);
            Map<String, Object> requested = received == null ? Map.of() : map(received);
            Map<String, Object> correlation = scope.params() != null
                    && scope.params().get("_meta") instanceof ObjectNode meta ? map(meta) : Map.of();
            Map<String, Object> toolMeta = tool != null && tool.descriptor().meta() instanceof ObjectNode meta
                    ? map(meta) : Map.of();
            invocation = new Invocation(scope.invocationId(), scope.caller(), scope.client(), scope.protocolVersion(),
                    name, args, requested, correlation, toolMeta);
        }
        return invocation;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(JsonNode node) {
        return Json.MAPPER.convertValue(node, Map.class);
    }

    /**
     * The host channel that was asked to admit this call: the same one answers its questions, reviews
     * and records its result and is told when it is over, even if another host channel arrives meanwhile.
     */
    void askedToAdmit(HostChannel admitting) {
        this.host = admitting;
    }

    /** The host channel that takes part in this call, or {@code null}. */
    HostChannel host() {
        return host;
    }

    /**
     * The call's attempts run on the thread serving it (the transport's, see {@code Exchange.run}):
     * {@code takeOver} answers the call from another thread when that thread stays stuck in a tool
     * past its timeout or cancellation ({@code null}: cancelled, else the result to deliver).
     */
    void inline(Consumer<CallToolResult> takeOver) {
        this.takeOver = takeOver;
    }

    /** Whether the attempts run on the serving thread. */
    boolean inline() {
        return takeOver != null;
    }

    /** Answers the call elsewhere: its thread is stuck in a tool. */
    void takeOver(CallToolResult result) {
        takeOver.accept(result);
    }

    /** The call was handed on (to a task, or to the tool's own escalated attempts). */
    void escalate(String how) {
        escalated = true;
        step("escalate", true, how);
    }

    /** Whether the tool sees {@code escalated()}: its attempts do the long work now. */
    boolean isEscalated() {
        return escalated;
    }

    /** A decision taken on the way. */
    synchronized void step(String stage, boolean allowed, String reason) {
        steps.add(new CallEvent.Step(stage, allowed, reason));
    }

    /** How the call ended, when not as {@link CallEvent.Ending#COMPLETED}; the first ending set stays. */
    synchronized void end(CallEvent.Ending how, String why) {
        if (!ended) {
            ended = true;
            ending = how;
            detail = why;
        }
    }

    /**
     * The event that tells listeners about the call, once it is over. The digest is worked out here, not
     * when the call arrives: only calls with a listener pay for it, and nothing changes the received
     * arguments in between (an edit replaces {@link #arguments}, it does not touch them).
     */
    synchronized CallEvent event() {
        return event(ending, detail);
    }

    /** The event that tells listeners the call's tool is about to run ({@link CallEvent.Ending#RUNNING}). */
    synchronized CallEvent runningEvent() {
        return event(CallEvent.Ending.RUNNING, null);
    }

    private CallEvent event(CallEvent.Ending how, String why) {
        Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
        ClientInfo client = scope.client();
        if (arrived == null) {
            arrived = Instant.now().minus(took); // once: both events of a call name the same moment
            digest = ArgumentsDigest.of(received);
        }
        return new CallEvent(scope.invocationId(), scope.caller(), scope.protocolVersion(), name,
                arrived, took, steps, how, why, client == null ? null : client.name(), digest);
    }
}
