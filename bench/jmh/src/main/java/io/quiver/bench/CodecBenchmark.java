package io.quiver.bench;

import io.quiver.api.ToolResult;
import io.quiver.core.internal.era.SessionEra;
import io.quiver.core.internal.era.StatelessEra;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.rpc.JsonRpc;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.node.IntNode;

/** Reading a request and writing a result, the engine's two ends of every call. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {

    private final byte[] request = EngineBenchmark.bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"},\"_meta\":{\"progressToken\":\"p1\"}}}");
    private final byte[] statelessRequest = EngineBenchmark.bytes("{\"jsonrpc\":\"2.0\",\"id\":2,"
            + "\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"},"
            + EngineBenchmark.STATELESS_META + "}}");
    private final SessionEra era = new SessionEra(Map.of());
    private final StatelessEra stateless = new StatelessEra(Map.of(), EngineSettings.of(Map.of()));
    private final CallToolResult result = CallToolResult.of(ToolResult.text("said hi"), Json.MAPPER);
    private final CallToolResult structured = CallToolResult.of(ToolResult.structured(Map.of("said", "hi", "n", 3)),
            Json.MAPPER);

    @Benchmark
    public Object parseToolsCall() {
        return JsonRpc.parse(request);
    }

    @Benchmark
    public byte[] writeTextResultForTheNewestSessionRevision() {
        return era.response(IntNode.valueOf(2), "tools/call", "2025-11-25", result);
    }

    @Benchmark
    public Object parseStatelessToolsCall() {
        return JsonRpc.parse(statelessRequest);
    }

    @Benchmark
    public byte[] writeTextResultForTheStatelessEra() {
        return stateless.response(IntNode.valueOf(2), "tools/call", "2026-07-28", result);
    }

    @Benchmark
    public byte[] writeTextResultForTheOldestRevision() {
        return era.response(IntNode.valueOf(2), "tools/call", "2024-11-05", result);
    }

    @Benchmark
    public byte[] writeStructuredResult() {
        return era.response(IntNode.valueOf(2), "tools/call", "2025-11-25", structured);
    }
}
