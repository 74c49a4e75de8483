package io.quiver.core.internal.pipeline;

import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.InputRequiredResult;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.request.Owner;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers of a 2026-07-28 request: earlier ones from its verified {@code requestState}, new ones from
 * its {@code inputResponses} (counted only for what this server asked, as the state it issued
 * records). What is still missing parks the request as an {@code input_required} result with a new
 * signed state, for the client to retry with.
 */
final class RequestStateInput implements AttemptLoop.Source {

    private final RequestScope scope;
    private final RequestState state;
    private final String subject;
    private final String target;
    private final JsonNode responses;
    /** The answers to sign into the next state: raw {@code {method, response}} by key. */
    private final Map<String, JsonNode> signed = new LinkedHashMap<>();
    /** Answers from elsewhere (the host's), for this request only. */
    private final Map<String, InputResponse> local = new LinkedHashMap<>();
    private Set<String> asked = Set.of();
    /** The rounds of input this request asked for before this attempt (carried in its state). */
    private int rounds;
    private final int maxRounds;

    /**
     * @param target what the state is bound to besides the caller, e.g. {@code tools/call echo}
     * @throws McpException (-32602) for a malformed or forged {@code requestState} or {@code inputResponses}
     */
    RequestStateInput(RequestScope scope, RequestState state, String target, ObjectNode params, int maxRounds) {
        this.scope = scope;
        this.maxRounds = maxRounds;
        this.state = state;
        // bound to the arguments too: an answer given for one call ("Delete a.txt?") is no answer for another
        JsonNode arguments = params.get("arguments");
        this.target = target + " " + ArgumentsDigest.of(arguments == null || arguments.isNull()
                ? Json.MAPPER.createObjectNode() : arguments);
        this.subject = Owner.of(scope.caller());
        JsonNode given = params.get("inputResponses");
        if (given != null && !given.isNull() && !given.isObject()) {
            throw McpException.invalidParams("Invalid params: inputResponses must be an object");
        }
        this.responses = given;
        JsonNode previous = params.get("requestState");
        if (previous != null && !previous.isNull()) {
            if (!previous.isString()) {
                throw McpException.invalidParams("Invalid params: requestState must be a string");
            }
            RequestState.Verified verified = state.redeem(previous.stringValue(), subject, this.target);
            signed.putAll(verified.answers());
            asked = verified.asked();
            rounds = verified.rounds();
        }
    }

    @Override
    public Map<String, InputResponse> answers() {
        if (signed.isEmpty() && local.isEmpty()) {
            return Map.of(); // a request that carries no answers, as nearly every call
        }
        Map<String, InputResponse> answers = new LinkedHashMap<>(typed(signed));
        answers.putAll(local);
        return Map.copyOf(answers);
    }

    @Override
    public void accept(String key, InputResponse answer) {
        local.put(key, answer);
    }

    @Override
    public Optional<Result> obtain(List<InputRequest> missing) {
        InputBroker.requireDeclared(scope.client(), missing);
        Map<String, InputRequiredResult.InputRequestWire> unanswered = new LinkedHashMap<>();
        boolean answered = false;
        for (InputRequest request : missing) {
            JsonNode response = responses == null || !asked.contains(request.key()) ? null
                    : responses.get(request.key());
            if (response != null && !response.isNull()
                    && HostAnswers.misfit(request, InputBroker.answer(request, response)) == null) {
                signed.put(request.key(), Json.MAPPER.createObjectNode()
                        .put("method", InputBroker.method(request)).set("response", response));
                answered = true;
            } else {
                unanswered.put(request.key(), InputBroker.wire(request));
            }
        }
        if (answered) {
            // the client's answers are used up: what the next attempt asks is new
            asked = Set.of();
            return Optional.empty();
        }
        if (rounds >= maxRounds) {
            // each retry runs a fresh loop: the state carries the count, so a client cannot answer forever
            throw AttemptLoop.tooManyRounds(maxRounds);
        }
        return Optional.of(new InputRequiredResult(unanswered, state.sign(subject, target, signed, unanswered.keySet(),
                rounds + 1)));
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
        return answers;
    }
}
