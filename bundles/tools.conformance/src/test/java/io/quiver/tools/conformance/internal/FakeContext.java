package io.quiver.tools.conformance.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** A request context that records what a component reports. */
final class FakeContext implements RequestContext {

    record Progress(double progress, Double total, String message) {
    }

    record Log(LogLevel level, String logger, Object data) {
    }

    final List<Progress> progress = new CopyOnWriteArrayList<>();
    final List<Log> logs = new CopyOnWriteArrayList<>();
    private final Map<String, Object> capabilities;

    /** A client that declared elicitation and sampling. */
    FakeContext() {
        this(Map.of("elicitation", Map.of(), "sampling", Map.of()));
    }

    /** A client that declared the given capabilities. */
    FakeContext(Map<String, Object> capabilities) {
        this.capabilities = capabilities;
    }

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
        this.progress.add(new Progress(progress, total, message));
    }

    @Override
    public void log(LogLevel level, String logger, Object data) {
        logs.add(new Log(level, logger, data));
    }

    @Override
    public boolean isCancelled() {
        return false;
    }
}
