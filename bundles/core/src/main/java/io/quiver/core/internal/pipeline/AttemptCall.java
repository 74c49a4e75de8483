package io.quiver.core.internal.pipeline;

import io.quiver.api.RequestContext;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.json.Json;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** What a tool sees of one attempt. */
final class AttemptCall implements ToolCall {

    private final String name;
    private final ObjectNode arguments;
    private final Map<String, Object> argumentMap;
    private final Map<String, InputResponse> answers;
    private final RequestContext context;

    @SuppressWarnings("unchecked")
    AttemptCall(String name, ObjectNode arguments, Map<String, InputResponse> answers, RequestContext context) {
        this.name = name;
        this.arguments = arguments;
        this.argumentMap = Map.copyOf(Json.MAPPER.convertValue(arguments, Map.class));
        this.answers = Map.copyOf(answers);
        this.context = context;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, Object> arguments() {
        return argumentMap;
    }

    @Override
    public <T> T arguments(Class<T> type) {
        return Json.MAPPER.treeToValue(arguments, type);
    }

    @Override
    public Map<String, InputResponse> answers() {
        return answers;
    }

    @Override
    public RequestContext context() {
        return context;
    }
}
