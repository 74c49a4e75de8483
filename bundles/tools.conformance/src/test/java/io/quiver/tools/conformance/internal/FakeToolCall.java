package io.quiver.tools.conformance.internal;

import io.quiver.api.RequestContext;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import java.util.Map;

/** One attempt of a call, with given arguments and answers. */
record FakeToolCall(String name, Map<String, Object> arguments, Map<String, InputResponse> answers,
        RequestContext context) implements ToolCall {

    static FakeToolCall of(String name, Map<String, Object> arguments) {
        return new FakeToolCall(name, arguments, Map.of(), new FakeContext());
    }

    /** The next attempt of this call, with one more answer. */
    FakeToolCall answered(String key, InputResponse answer) {
        return new FakeToolCall(name, arguments, Map.of(key, answer), context);
    }

    @Override
    public <T> T arguments(Class<T> type) {
        throw new UnsupportedOperationException("the fixture reads its arguments as a map");
    }
}
