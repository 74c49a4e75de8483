package io.quiver.tools.http.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import java.util.Map;

/** A first attempt of a call with the given arguments, in a context that ignores reports. */
record FakeToolCall(String name, Map<String, Object> arguments) implements ToolCall {

    @Override
    public <T> T arguments(Class<T> type) {
        throw new UnsupportedOperationException("fetch reads its arguments as a map");
    }

    @Override
    public Map<String, InputResponse> answers() {
        return Map.of();
    }

    @Override
    public RequestContext context() {
        return new RequestContext() {
            @Override
            public String invocationId() {
                return "test-invocation";
            }

            @Override
            public CallerIdentity caller() {
                return CallerIdentity.ANONYMOUS;
            }

            @Override
            public ClientInfo client() {
                return new ClientInfo("unit-test", "1.0", Map.of());
            }

            @Override
            public String protocolVersion() {
                return "2025-11-25";
            }

            @Override
            public void progress(double progress, Double total, String message) {
            }

            @Override
            public void log(LogLevel level, String logger, Object data) {
            }

            @Override
            public boolean isCancelled() {
                return false;
            }
        };
    }
}
