package io.quiver.examples.greeting;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import java.util.Map;

/**
 * One attempt of a call as the server would make it, without a server: the arguments are already
 * the record, the answers are given, and the context ignores progress and log messages.
 *
 * @param client the client's declared capabilities matter for asking the user
 */
record FakeToolCall(GreetingArgs args, Map<String, InputResponse> answers, ClientInfo client) implements ToolCall {

    static final ClientInfo WITH_ELICITATION = new ClientInfo("test", "1", Map.of("elicitation", Map.of()));
    static final ClientInfo PLAIN = new ClientInfo("test", "1", Map.of());

    /** A first attempt from a client that can answer questions. */
    static FakeToolCall first(GreetingArgs args) {
        return new FakeToolCall(args, Map.of(), WITH_ELICITATION);
    }

    @Override
    public String name() {
        return "greet";
    }

    @Override
    public Map<String, Object> arguments() {
        throw new UnsupportedOperationException("greet reads its arguments as a record");
    }

    @Override
    public <T> T arguments(Class<T> type) {
        return type.cast(args);
    }

    @Override
    public RequestContext context() {
        ClientInfo info = client;
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
                return info;
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
