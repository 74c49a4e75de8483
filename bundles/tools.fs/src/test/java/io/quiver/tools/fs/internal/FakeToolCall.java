package io.quiver.tools.fs.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import java.util.Map;

/** One attempt of a call with an arguments record, the answers so far and a client's capabilities. */
record FakeToolCall(Object args, Map<String, InputResponse> answers, Map<String, Object> capabilities)
        implements ToolCall {

    /** A first attempt by a client that offers no roots. */
    static FakeToolCall of(Object args) {
        return new FakeToolCall(args, Map.of(), Map.of());
    }

    @Override
    public String name() {
        return "test";
    }

    @Override
    public Map<String, Object> arguments() {
        return Map.of();
    }

    @Override
    public <T> T arguments(Class<T> type) {
        return type.cast(args);
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
                return new ClientInfo("unit-test", "1.0", capabilities);
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
