package io.quiver.bench;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A trivial {@code tools/call} through the engine in process, as a transport hands it over: no HTTP,
 * but the hand-offs between threads where there are any, the pipeline's stages, the result's one
 * serialisation. The
 * distance between this and {@code bench/throughput.sh} is the transport's share.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EngineBenchmark {

    static final String STATELESS_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"jmh\",\"version\":\"1\"}}";

    /** Threads of the request and tool pools; 0: the server's defaults. */
    @Param({"0"})
    public int threads;

    /**
     * How the transport hands the request over: {@code true} as the HTTP transport does with a body
     * that came with its headers ({@code Exchange.run}: served on this thread, tool included),
     * {@code false} with {@code Exchange.start} (request and tool threads).
     */
    @Param({"true", "false"})
    public boolean inline;

    private EngineAssembly assembly;
    private String session;
    private byte[] sessionCall;
    private byte[] statelessCall;

    /** A sink that hands the response to whoever waits. */
    private static final class Answer implements MessageSink {
        final CompletableFuture<byte[]> done = new CompletableFuture<>();

        @Override
        public void send(byte[] message) {
        }

        @Override
        public void complete(byte[] response) {
            done.complete(response);
        }
    }

    @Setup(Level.Trial)
    public void start() throws Exception {
        Catalog catalog = new Catalog();
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", "echo");
        props.put("mcp.tool.description", "Says it back");
        props.put("mcp.tool.inputSchema", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}");
        props.put("service.id", 1L);
        Tool echo = call -> Outcome.text("said " + call.arguments().get("text"));
        catalog.bindTool(echo, props);
        Map<String, Object> settings = threads > 0
                ? Map.of("maxConcurrentRequests", threads, "maxConcurrentCalls", threads) : Map.of();
        assembly = EngineAssembly.of(catalog, EngineSettings.of(settings), new ToolLimitsRegistry(), new Extensions());
        Receipt init = assembly.engine().receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"jmh\",\"version\":\"1\"}}}"), new Inbound(null, null, CallerIdentity.ANONYMOUS));
        Receipt.Pending pending = (Receipt.Pending) init;
        session = pending.session().id();
        Answer answer = new Answer();
        pending.exchange().start(answer);
        answer.done.get(5, TimeUnit.SECONDS);
        assembly.engine().receive(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                new Inbound(session, "2025-11-25", CallerIdentity.ANONYMOUS));
        sessionCall = bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}}}");
        statelessCall = bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}," + STATELESS_META + "}}");
    }

    @TearDown(Level.Trial)
    public void stop() {
        assembly.close();
    }

    @Benchmark
    public byte[] sessionToolsCall() throws Exception {
        return call(sessionCall, new Inbound(session, "2025-11-25", CallerIdentity.ANONYMOUS));
    }

    @Benchmark
    public byte[] statelessToolsCall() throws Exception {
        return call(statelessCall, new Inbound(null, "2026-07-28", CallerIdentity.ANONYMOUS));
    }

    private byte[] call(byte[] message, Inbound inbound) throws Exception {
        Receipt.Pending pending = (Receipt.Pending) assembly.engine().receive(message, inbound);
        Answer answer = new Answer();
        if (inline) {
            pending.exchange().run(answer);
        } else {
            pending.exchange().start(answer);
        }
        return answer.done.get(5, TimeUnit.SECONDS);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
