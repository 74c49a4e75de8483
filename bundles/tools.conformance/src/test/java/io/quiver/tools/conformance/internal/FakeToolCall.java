package io.quiver.tools.conformance.internal;

import io.quiver.api.RequestContext;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/** One attempt of a call, with given arguments and answers. */
record FakeToolCall(String name, Map<String, Object> arguments, Map<String, InputResponse> answers,
        RequestContext context, boolean escalated) implements ToolCall {

    static FakeToolCall of(String name, Map<String, Object> arguments) {
        return new FakeToolCall(name, arguments, Map.of(), new FakeContext(), false);
    }

    /** A first attempt from a client that declared the given capabilities. */
    static FakeToolCall withCapabilities(String name, Map<String, Object> capabilities) {
        return new FakeToolCall(name, Map.of(), Map.of(), new FakeContext(capabilities), false);
    }

    /** The next attempt of this call: the answers so far plus one more. */
    FakeToolCall answered(String key, InputResponse answer) {
        Map<String, InputResponse> all = new LinkedHashMap<>(answers);
        all.put(key, answer);
        return new FakeToolCall(name, arguments, Map.copyOf(all), context, escalated);
    }

    /** The same attempt after the tool escalated: its task (or the call, without one) does the rest. */
    FakeToolCall escalation() {
        return new FakeToolCall(name, arguments, answers, context, true);
    }

    @Override
    public <T> T arguments(Class<T> type) {
        throw new UnsupportedOperationException("the fixture reads its arguments as a map");
    }
}
