package io.quiver.core.internal.pipeline;

import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.request.RequestScope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Answers from a session client: each missing answer is asked for on the request's own stream
 * ({@code elicitation/create}, {@code sampling/createMessage}, {@code roots/list}) and waited for.
 */
final class AskClient implements AttemptLoop.Source {

    private final RequestScope scope;
    private final InputBroker broker;
    private final Map<String, InputResponse> answers = new LinkedHashMap<>();

    AskClient(RequestScope scope, InputBroker broker) {
        this.scope = scope;
        this.broker = broker;
    }

    @Override
    public Map<String, InputResponse> answers() {
        return Map.copyOf(answers);
    }

    @Override
    public void accept(String key, InputResponse answer) {
        answers.put(key, answer);
    }

    @Override
    public Optional<Result> obtain(List<InputRequest> missing) throws InputBroker.Unanswerable {
        for (InputRequest request : missing) {
            answers.put(request.key(), broker.obtain(scope, request));
        }
        return Optional.empty();
    }
}
