package io.quiver.tools.command.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** One attempt of a call: its arguments and answers, a client that can be asked, and a context that records. */
final class FakeToolCall implements ToolCall {

    final Map<String, Object> arguments;
    final Map<String, InputResponse> answers;
    final List<String> progress = new CopyOnWriteArrayList<>();
    final AtomicBoolean cancelled = new AtomicBoolean();
    /** Run on each progress report (to make a slow client). */
    volatile Runnable onProgress = () -> { };

    FakeToolCall(Map<String, Object> arguments, Map<String, InputResponse> answers) {
        this.arguments = arguments;
        this.answers = answers;
    }

    FakeToolCall(Map<String, Object> arguments) {
        this(arguments, Map.of());
    }

    @Override
    public String name() {
        return "test";
    }

    @Override
    public Map<String, Object> arguments() {
        return arguments;
    }

    @Override
    public <T> T arguments(Class<T> type) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, InputResponse> answers() {
        return answers;
    }

    @Override
    public RequestContext context() {
        return new RequestContext() {
            @Override
            public String invocationId() {
                return "inv-1";
            }

            @Override
            public CallerIdentity caller() {
                return CallerIdentity.ANONYMOUS.in("acme", "site");
            }

            @Override
            public ClientInfo client() {
                return new ClientInfo("unit-test", "1.0", Map.of("elicitation", Map.of()));
            }

            @Override
            public String protocolVersion() {
                return "2025-11-25";
            }

            @Override
            public void progress(double done, Double total, String message) {
                onProgress.run();
                progress.add(message);
            }

            @Override
            public void log(LogLevel level, String logger, Object data) {
            }

            @Override
            public boolean isCancelled() {
                return cancelled.get();
            }
        };
    }
}
