package io.quiver.upstream.internal;

import io.quiver.lib.content.ContentJson;
import io.quiver.lib.external.OutcomeEnvelope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.RequestContext;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One upstream tool as a Quiver {@link Tool}: each attempt is one {@code tools/call} to the server
 * ({@link CallExchange}), with the validated arguments, a progress token whose notifications become
 * the caller's progress, and the trusted invocation context in {@code _meta} ({@value #TOOL_META},
 * {@value #CONTEXT_META}), built here from the pipeline's values. The caller's own {@code _meta} goes on
 * beside it, less the protocol's keys and any under {@value #RESERVED_META}, which only Quiver writes.
 * A cancelled call (by the client, its timeout or shutdown) is cancelled upstream. A call whose
 * connection ends before the answer ends with an error and is not sent again.
 *
 * <p>What the upstream asks its client while it works on the call (its {@code elicitation/create},
 * {@code sampling/createMessage} and {@code roots/list} requests in a session revision, the
 * {@code inputRequests} of an {@code input_required} result in a stateless one) is asked of the
 * caller, through the engine's input path, as any tool asks ({@link Outcome.NeedsInput}): the
 * exchange waits in {@link Parking} meanwhile, and the next attempt, carrying the answers, gives them
 * to the upstream and goes on with the same exchange. A question the caller cannot be asked (its
 * client did not declare the capability, or a form of it Quiver cannot pass on) is refused to the
 * upstream with a JSON-RPC error (a session revision), or ends the call with an error saying so.
 *
 * <p>The result is passed on block for block, except one made of exactly one text block whose whole
 * text is Quiver's Outcome envelope ({@link #envelope}): that is read as the outcome it states.
 */
final class ProxyTool implements Tool {

    static final String TOOL_META = "io.quiver/tool";
    static final String CONTEXT_META = "io.quiver/context";
    /** The prefix of Quiver's own {@code _meta} keys: never taken from the caller. */
    static final String RESERVED_META = "io.quiver/";
    /** The envelope's discriminating member. */
    static final String OUTCOME = OutcomeEnvelope.OUTCOME;
    /** How often a waiting call looks whether it was cancelled. */
    private static final long CANCEL_POLL_MS = 25;

    private final Upstream upstream;
    private final String upstreamName;

    ProxyTool(Upstream upstream, String upstreamName) {
        this.upstream = upstream;
        this.upstreamName = upstreamName;
    }

    @Override
    public Outcome call(ToolCall call) throws Exception {
        Upstream.Generation g = upstream.ready();
        if (g == null) {
            return Outcome.done(ToolResult.error(upstream.unavailable() + "; try again once it is ready."));
        }
        RequestContext context = call.context();
        CallerIdentity caller = context.caller();
        String owner = Parking.owner(caller.subject(), caller.tenant(), caller.project(), call.name());
        String handle = null;
        Parking.Parked parked = null;
        for (String key : call.answers().keySet()) {
            String h = Parking.handle(key);
            if (h != null && g.parking.status(h) != Parking.Found.FINISHED) {
                handle = h;
                parked = g.parking.take(h, owner);
                if (parked != null) {
                    break;
                }
            }
        }
        if (handle != null && parked == null) {
            return Outcome.done(ToolResult.error("The upstream server " + g.serverName() + " is no longer waiting for"
                    + " these answers (it restarted, or waited longer than it holds a question). Whether the call took"
                    + " effect there is unknown; Quiver did not send it again."));
        }
        String callKey = Parking.call(owner, McpClient.JSON.valueToTree(call.arguments()));
        if (parked == null && stateless(context)) {
            // a retry runs first without the answers it brings: the waiting exchange asks again, nothing is sent
            Parking.Parked waiting = g.parking.waiting(callKey);
            if (waiting != null) {
                List<InputRequest> again = new ArrayList<>();
                waiting.questions().forEach((key, q) -> again.add(Inputs.request(key, q)));
                return new Outcome.NeedsInput(again);
            }
        }
        CallExchange exchange;
        int round;
        if (parked != null) {
            exchange = parked.exchange();
            round = parked.round();
            handle = parked.handle();
            Map<String, JsonNode> given = new LinkedHashMap<>();
            List<InputRequest> missing = new ArrayList<>();
            for (Map.Entry<String, CallExchange.Question> q : parked.questions().entrySet()) {
                InputResponse answer = call.answers().get(q.getKey());
                if (answer == null) {
                    missing.add(Inputs.request(q.getKey(), q.getValue()));
                } else {
                    given.put(q.getValue().key(), Inputs.result(answer));
                }
            }
            if (!missing.isEmpty()) {
                g.parking.park(parked);
                return new Outcome.NeedsInput(missing);
            }
            exchange.answer(given);
        } else {
            exchange = new CallExchange(g.client, params(g, call), headers(g, call)).start();
            round = 0;
        }
        exchange.onProgress(p -> context.progress(p.path("progress").asDouble(),
                p.path("total").isNumber() ? p.path("total").asDouble() : null,
                p.path("message").isString() ? p.path("message").asString() : null));
        boolean waiting = false;
        try {
            while (true) {
                CallExchange.Step step;
                try {
                    step = exchange.next(CANCEL_POLL_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    // the engine stops the attempt (cancelled, timed out, shutting down): so does the server
                    exchange.cancel("the caller cancelled the call or it timed out");
                    Thread.currentThread().interrupt();
                    return Outcome.done(ToolResult.error("The call was cancelled."));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof McpClient.RpcError rpc) {
                        throw Forwarded.refusal(g, "tools/call", rpc);
                    }
                    return Outcome.done(ToolResult.error("The upstream server " + g.serverName()
                            + " stopped before it answered (" + e.getCause().getMessage() + "). Whether the call took"
                            + " effect there is unknown; Quiver did not send it again."));
                }
                if (step == null) {
                    if (context.isCancelled()) {
                        exchange.cancel("the caller cancelled the call or it timed out");
                        return Outcome.done(ToolResult.error("The call was cancelled."));
                    }
                    continue;
                }
                if (step instanceof CallExchange.Step.Done done) {
                    if (handle != null) {
                        g.parking.finished(handle);
                    }
                    return outcome(done.result());
                }
                List<CallExchange.Question> questions = ((CallExchange.Step.Asks) step).questions();
                Map<String, CallExchange.Question> asked = new LinkedHashMap<>();
                List<InputRequest> requests = new ArrayList<>();
                if (handle == null) {
                    handle = Parking.newHandle();
                }
                round++;
                for (CallExchange.Question q : questions) {
                    String key = Parking.key(handle, round, q.key());
                    String refusal = Inputs.refusal(q, context.client());
                    if (refusal == null) {
                        asked.put(key, q);
                        requests.add(Inputs.request(key, q));
                    } else if (exchange.roundBased()) {
                        exchange.cancel(refusal);
                        return Outcome.done(ToolResult.error("The upstream server " + g.serverName() + " asked for input"
                                + " Quiver cannot get from this client: " + refusal + "."));
                    } else {
                        exchange.refuse(q.key(), -32603, refusal);
                    }
                }
                if (requests.isEmpty()) {
                    continue;
                }
                // while it waits, progress has no attempt to go to; the next attempt takes it again
                exchange.onProgress(p -> { });
                g.parking.park(new Parking.Parked(handle, round, exchange, asked, owner, callKey,
                        System.currentTimeMillis() + Parking.HOLD_MS));
                waiting = true;
                return new Outcome.NeedsInput(requests);
            }
        } finally {
            if (!waiting) {
                exchange.cancelIfOpen();
            }
        }
    }

    /** Whether the caller speaks a stateless revision (2026-07-28 or later), whose retries start without their answers. */
    private static boolean stateless(RequestContext context) {
        String version = context.protocolVersion();
        return version != null && version.compareTo(McpClient.STATELESS_VERSIONS.get(McpClient.STATELESS_VERSIONS.size() - 1)) >= 0;
    }

    /** The call's params: name, arguments and the trusted context; in a stateless revision what the caller can answer. */
    private ObjectNode params(Upstream.Generation g, ToolCall call) {
        RequestContext context = call.context();
        ObjectNode params = McpClient.JSON.createObjectNode().put("name", upstreamName);
        params.set("arguments", McpClient.JSON.valueToTree(call.arguments()));
        ObjectNode meta = params.putObject("_meta");
        // the caller's own _meta goes on, but never under Quiver's keys: those below are Quiver's word alone
        context.meta().forEach((key, value) -> {
            if (!key.startsWith(RESERVED_META)) {
                meta.set(key, McpClient.JSON.valueToTree(value));
            }
        });
        meta.put("progressToken", "quiver-" + context.invocationId());
        ObjectNode tool = meta.putObject(TOOL_META);
        tool.put("name", call.name()).put("upstreamName", upstreamName).put("server", g.serverName());
        ObjectNode trusted = meta.putObject(CONTEXT_META);
        trusted.put("invocationId", context.invocationId());
        trusted.set("arguments", McpClient.JSON.valueToTree(call.arguments()));
        trusted.set("answers", answers(call.answers()));
        trusted.put("tenant", context.caller().tenant());
        if (context.caller().project() != null) {
            trusted.put("project", context.caller().project());
        }
        if (g.client.isStateless()) {
            meta.set(McpClient.META_CAPABILITIES, Inputs.capabilities(context.client()));
        }
        return params;
    }

    /** Over Streamable HTTP in a stateless revision, the {@code Mcp-Param-*} headers the tool's schema designates. */
    private Map<String, String> headers(Upstream.Generation g, ToolCall call) {
        if (!g.client.isStateless() || !g.connection.http()) {
            return Map.of();
        }
        JsonNode tool = g.listed(upstreamName);
        return tool == null ? Map.of() : McpHeaders.params(tool.get("inputSchema"), McpClient.JSON.valueToTree(call.arguments()));
    }

    /** The answers an Outcome envelope asked for (those of the upstream's own questions are not among them). */
    private static JsonNode answers(Map<String, InputResponse> answers) {
        ObjectNode out = McpClient.JSON.createObjectNode();
        answers.forEach((key, answer) -> {
            if (Parking.handle(key) == null) {
                out.set(key, McpClient.JSON.valueToTree(answer));
            }
        });
        return out;
    }

    /** The result as it came, or the outcome its envelope states. */
    static Outcome outcome(JsonNode result) {
        JsonNode content = result.path("content");
        boolean isError = result.path("isError").asBoolean(false);
        if (content.isArray() && content.size() == 1 && "text".equals(content.get(0).path("type").asString(""))) {
            Outcome stated = envelope(content.get(0).path("text").asString(""), isError);
            if (stated != null) {
                return stated;
            }
        }
        return Outcome.done(ContentJson.toolResult(result));
    }

    /**
     * Quiver's Outcome envelope ({@link OutcomeEnvelope}): the outcome a text states, or null when it is
     * not one (it is then passed on as it is); an upstream {@code isError} wins over a stated {@code done}.
     */
    static Outcome envelope(String text, boolean isError) {
        return OutcomeEnvelope.read(text, isError, "The upstream tool");
    }
}
