package io.quiver.testing;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A request context for unit tests: a caller, a client with the capabilities it declared, and a record of what
 * the code under test reported (progress, log messages). It is cancelled when the test says so. Safe to use from
 * the threads a tool starts.
 */
public final class FakeRequestContext implements RequestContext {

    /** The invocation id every fake context has. */
    public static final String INVOCATION_ID = "test-invocation";
    /** The protocol revision every fake context negotiated. */
    public static final String PROTOCOL_VERSION = "2025-11-25";

    /** One progress report, as the code under test made it. */
    public record Progress(double progress, Double total, String message) {
    }

    /** One log message, as the code under test sent it. */
    public record Log(LogLevel level, String logger, Object data) {
    }

    private final CallerIdentity caller;
    private final ClientInfo client;
    private final Map<String, Object> meta;
    private final List<Progress> progress = new CopyOnWriteArrayList<>();
    private final List<Log> logs = new CopyOnWriteArrayList<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private volatile Runnable onProgress = () -> { };

    /** An anonymous caller whose client declared no capabilities. */
    public FakeRequestContext() {
        this(CallerIdentity.ANONYMOUS, Map.of());
    }

    /**
     * @param caller who calls
     * @param capabilities the capabilities object the client declared, e.g. {@code Map.of("elicitation", Map.of())}
     */
    public FakeRequestContext(CallerIdentity caller, Map<String, Object> capabilities) {
        this(caller, capabilities, Map.of());
    }

    private FakeRequestContext(CallerIdentity caller, Map<String, Object> capabilities, Map<String, Object> meta) {
        this.caller = caller;
        this.client = new ClientInfo("unit-test", "1.0", capabilities);
        this.meta = Map.copyOf(meta);
    }

    /** A new context (nothing reported yet) for the same caller, whose client declared these capabilities. */
    public FakeRequestContext withCapabilities(Map<String, Object> capabilities) {
        return new FakeRequestContext(caller, capabilities, meta);
    }

    /** A new context (nothing reported yet) for another caller, whose client declared the same capabilities. */
    public FakeRequestContext withCaller(CallerIdentity caller) {
        return new FakeRequestContext(caller, client.capabilities(), meta);
    }

    /**
     * A new context (nothing reported yet) for the same caller and client, whose request carried this
     * {@code _meta}: what {@link #meta()} answers, as the server would hand it over (give it without
     * {@code progressToken} and the protocol's {@code io.modelcontextprotocol/} keys, which a tool never sees).
     *
     * @param meta JSON values by key (no null keys or values)
     */
    public FakeRequestContext withMeta(Map<String, Object> meta) {
        return new FakeRequestContext(caller, client.capabilities(), meta);
    }

    @Override
    public String invocationId() {
        return INVOCATION_ID;
    }

    @Override
    public CallerIdentity caller() {
        return caller;
    }

    @Override
    public ClientInfo client() {
        return client;
    }

    @Override
    public String protocolVersion() {
        return PROTOCOL_VERSION;
    }

    @Override
    public Map<String, Object> meta() {
        return meta;
    }

    /** Runs the action set with {@link #onProgress(Runnable)} (a slow client, say), then records the report. */
    @Override
    public void progress(double progress, Double total, String message) {
        onProgress.run();
        this.progress.add(new Progress(progress, total, message));
    }

    @Override
    public void log(LogLevel level, String logger, Object data) {
        logs.add(new Log(level, logger, data));
    }

    @Override
    public boolean isCancelled() {
        return cancelled.get();
    }

    /** Cancels the request: {@link #isCancelled()} is true from now on. */
    public void cancel() {
        cancelled.set(true);
    }

    /** Runs an action on each progress report before it is recorded (a client that takes its time, say). */
    public void onProgress(Runnable action) {
        onProgress = action;
    }

    /** The progress reports so far, in the order made (a live view). */
    public List<Progress> progressReports() {
        return progress;
    }

    /** The messages of the progress reports so far, in the order made. */
    public List<String> progressMessages() {
        return progress.stream().map(Progress::message).toList();
    }

    /** The log messages so far, in the order sent (a live view). */
    public List<Log> logs() {
        return logs;
    }
}
