package io.quiver.core.internal.pipeline;

import io.quiver.api.input.InputNeeded;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.InputRequiredResult;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.request.Session;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs something that may need input (a tool, a prompt) to completion. Each attempt gets every
 * answer so far; no thread waits for the user between attempts. A session client is asked
 * ({@code elicitation/create}, …) on the request's stream; a 2026-07-28 client gets an
 * {@code input_required} result with a signed {@code requestState} and retries with its answers.
 */
public final class InputRounds {

    private static final Logger LOG = LoggerFactory.getLogger(InputRounds.class);

    /** What one attempt gave. */
    public sealed interface Attempt {
        /** Finished, with this result. */
        record Done(Result result) implements Attempt {
        }

        /** Needs these answers first. */
        record Needs(List<InputRequest> requests) implements Attempt {
        }
    }

    /** One attempt, given every answer so far. */
    @FunctionalInterface
    public interface Runner {
        Attempt run(Map<String, InputResponse> answers) throws Exception;
    }

    /** Extension code that asks for input by throwing {@link InputNeeded} (prompts, resources). */
    @FunctionalInterface
    public interface Asking {
        Result run(Map<String, InputResponse> answers) throws Exception;
    }

    /**
     * Runs extension code that asks by throwing {@link InputNeeded} to completion; a failure of its own
     * is logged with the invocation id and answered as an internal error whose text is {@code failure}.
     */
    public Result runAsking(RequestScope scope, String target, ObjectNode params, Asking code, String failure) {
        Runner runner = answers -> {
            try {
                return new Attempt.Done(code.run(answers));
            } catch (InputNeeded needed) {
                return new Attempt.Needs(needed.requests());
            }
        };
        try {
            return run(scope, target, params, runner);
        } catch (McpException | CancellationException e) {
            throw e;
        } catch (Exception e) {
            LOG.error("{} failed ({})", target, scope.invocationId(), e);
            throw new McpException(ErrorCodes.INTERNAL_ERROR, failure);
        }
    }

    private final InputBroker broker;
    private final RequestState state;
    private final IntSupplier maxRounds;

    InputRounds(InputBroker broker, RequestState state, IntSupplier maxRounds) {
        this.broker = broker;
        this.state = state;
        this.maxRounds = maxRounds;
    }

    /** Runs with the input source of the request's revision: {@link #withSession} or {@link #stateless}. */
    public Result run(RequestScope scope, String target, ObjectNode params, Runner runner) throws Exception {
        return scope.era().asksClient() ? withSession(scope, runner) : stateless(scope, target, params, runner);
    }

    /** Session clients: ask for each missing answer on the request's stream, then try again. */
    Result withSession(RequestScope scope, Runner runner) throws Exception {
        Map<String, InputResponse> answers = new LinkedHashMap<>();
        for (int round = 0; round <= maxRounds.getAsInt(); round++) {
            Attempt attempt = runner.run(Map.copyOf(answers));
            if (attempt instanceof Attempt.Done done) {
                return done.result();
            }
            for (InputRequest request : ((Attempt.Needs) attempt).requests()) {
                if (!answers.containsKey(request.key())) {
                    answers.put(request.key(), broker.obtain(scope, request));
                }
            }
        }
        throw new McpException(ErrorCodes.INTERNAL_ERROR, "Input was requested more than " + maxRounds.getAsInt() + " times");
    }

    /**
     * 2026-07-28: earlier answers come from the verified {@code requestState}, new ones from
     * {@code inputResponses}; what is still missing is returned as {@code input_required}.
     *
     * @param target what the state is bound to besides the caller, e.g. {@code tools/call echo}
     */
    Result stateless(RequestScope scope, String target, ObjectNode params, Runner runner) throws Exception {
        String subject = scope.caller().tenant() + "/" + scope.caller().subject();
        Map<String, JsonNode> signed = new LinkedHashMap<>();
        JsonNode responses = params.get("inputResponses");
        if (responses != null && !responses.isNull() && !responses.isObject()) {
            throw McpException.invalidParams("Invalid params: inputResponses must be an object");
        }
        // answers count only for what this server asked, as a state it issued records
        Set<String> asked = Set.of();
        JsonNode given = params.get("requestState");
        if (given != null && !given.isNull()) {
            if (!given.isString()) {
                throw McpException.invalidParams("Invalid params: requestState must be a string");
            }
            RequestState.Verified verified = state.redeem(given.stringValue(), subject, target);
            signed.putAll(verified.answers());
            asked = verified.asked();
        }
        for (int round = 0; round <= maxRounds.getAsInt(); round++) {
            Attempt attempt = runner.run(typed(signed));
            if (attempt instanceof Attempt.Done done) {
                return done.result();
            }
            Map<String, Object> required = new LinkedHashMap<>();
            Map<String, InputRequiredResult.InputRequestWire> missing = new LinkedHashMap<>();
            boolean answered = false;
            for (InputRequest request : ((Attempt.Needs) attempt).requests()) {
                if (signed.containsKey(request.key())) {
                    continue;
                }
                String capability = InputBroker.capability(request);
                if (!scope.client().supports(capability)) {
                    required.put(capability, Map.of());
                    continue;
                }
                JsonNode response = responses == null || !asked.contains(request.key()) ? null
                        : responses.get(request.key());
                if (response != null && !response.isNull()) {
                    InputBroker.answer(request, response);
                    signed.put(request.key(), Json.MAPPER.createObjectNode()
                            .put("method", InputBroker.method(request)).set("response", response));
                    answered = true;
                } else {
                    missing.put(request.key(), InputBroker.wire(request));
                }
            }
            if (!required.isEmpty()) {
                throw McpException.missingCapability(required);
            }
            if (!answered) {
                return new InputRequiredResult(missing, state.sign(subject, target, signed, missing.keySet()));
            }
            asked = Set.of();
        }
        throw new McpException(ErrorCodes.INTERNAL_ERROR, "Input was requested more than " + maxRounds.getAsInt() + " times");
    }

    /** The typed answers of the signed raw ones (each {@code {method, response}}). */
    private static Map<String, InputResponse> typed(Map<String, JsonNode> signed) {
        Map<String, InputResponse> answers = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : signed.entrySet()) {
            InputRequest shape = switch (e.getValue().path("method").asString("")) {
                case "elicitation/create" -> new InputRequest.Elicitation(e.getKey(), "", Map.of());
                case "sampling/createMessage" -> new InputRequest.Sampling(e.getKey(), List.of(), 1, null);
                default -> new InputRequest.Roots(e.getKey());
            };
            answers.put(e.getKey(), InputBroker.answer(shape, e.getValue().get("response")));
        }
        return Map.copyOf(answers);
    }
}
