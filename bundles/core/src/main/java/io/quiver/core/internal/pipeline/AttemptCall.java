package io.quiver.core.internal.pipeline;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.json.Json;
import java.util.Collections;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** What a tool sees of one attempt. */
final class AttemptCall implements ToolCall {

    private final String name;
    private final ObjectNode arguments;
    /** Made on first use: most tools read typed arguments, or none. */
    private volatile Map<String, Object> argumentMap;
    private final Map<String, InputResponse> answers;
    private final RequestContext context;
    private final JsonMapper mapper;
    private final boolean escalated;

    /**
     * @param escalated whether the call was handed on (a task, or after {@code Outcome.escalate()})
     * @param mapper the tool's own mapper, so no shared cache holds on to the tool's classes */
    AttemptCall(String name, ObjectNode arguments, Map<String, InputResponse> answers, boolean escalated,
            RequestContext context, JsonMapper mapper) {
        this.escalated = escalated;
        this.name = name;
        this.arguments = arguments;
        this.answers = Map.copyOf(answers);
        this.mapper = mapper;
        this.context = new ToolContext(context, mapper, this);
    }

    /** Whether the attempt is over for the tool (it timed out): its context then says cancelled. */
    private volatile boolean over;

    /** The attempt timed out: the tool's context says cancelled from now on, so a tool that polls it stops. */
    void over() {
        over = true;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Map<String, Object> arguments() {
        Map<String, Object> map = argumentMap;
        if (map == null) {
            // not Map.copyOf: an argument may be null; read from the tree, not converted through a buffer
            map = Collections.unmodifiableMap(Json.MAPPER.treeToValue(arguments, Map.class));
            argumentMap = map;
        }
        return map;
    }

    @Override
    public <T> T arguments(Class<T> type) {
        try {
            return mapper.treeToValue(arguments, type);
        } catch (JacksonException e) {
            throw new ArgumentsMismatch(e);
        }
    }

    @Override
    public Map<String, InputResponse> answers() {
        return answers;
    }

    @Override
    public boolean escalated() {
        return escalated;
    }

    @Override
    public RequestContext context() {
        return context;
    }

    /** The request context as the tool sees it: log data of the tool's own types is turned into JSON here. */
    private record ToolContext(RequestContext delegate, JsonMapper mapper, AttemptCall attempt) implements RequestContext {
        @Override
        public String invocationId() {
            return delegate.invocationId();
        }

        @Override
        public CallerIdentity caller() {
            return delegate.caller();
        }

        @Override
        public ClientInfo client() {
            return delegate.client();
        }

        @Override
        public String protocolVersion() {
            return delegate.protocolVersion();
        }

        @Override
        public void progress(double progress, Double total, String message) {
            delegate.progress(progress, total, message);
        }

        @Override
        public void log(LogLevel level, String logger, Object data) {
            delegate.log(level, logger, data == null || data instanceof String ? data : mapper.valueToTree(data));
        }

        @Override
        public boolean isCancelled() {
            return attempt.over || delegate.isCancelled();
        }

        @Override
        public Map<String, Object> meta() {
            return delegate.meta();
        }
    }
}
