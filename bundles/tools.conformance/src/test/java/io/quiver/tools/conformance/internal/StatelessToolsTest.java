package io.quiver.tools.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.LogLevel;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.content.TextContent;
import io.quiver.testing.FakeRequestContext;
import io.quiver.testing.FakeToolCall;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plain 2026-07-28 fixtures: greet, the custom-header echo and the logging tool. */
class StatelessToolsTest {

    private static String text(Tool tool, FakeToolCall call) throws Exception {
        Outcome.Done done = assertInstanceOf(Outcome.Done.class, tool.call(call));
        return assertInstanceOf(TextContent.class, done.result().content().get(0)).text();
    }

    @Test
    void greetGreetsByNameAndTheWorldWithoutOne() throws Exception {
        assertEquals("Hello, sep-2243!", text(new GreetTool(), FakeToolCall.of("greet", Map.of("name", "sep-2243"))));
        assertEquals("Hello, World!", text(new GreetTool(), FakeToolCall.of("greet", Map.of())));
    }

    @Test
    void customHeaderToolEchoesTheRegion() throws Exception {
        assertEquals("Region: =?base64?SGVsbG8=",
                text(new CustomHeaderTool(), FakeToolCall.of("test_custom_header", Map.of("region", "=?base64?SGVsbG8="))));
    }

    @Test
    void loggingToolLogsInfoAndReturnsAtOnce() throws Exception {
        FakeToolCall call = FakeToolCall.of("test_logging_tool", Map.of());
        long start = System.nanoTime();
        assertEquals("Logging evaluated", text(new LogLevelOptInTool(), call));
        assertTrue(System.nanoTime() - start < 200_000_000L, "returns quickly");
        List<FakeRequestContext.Log> logs = call.context().logs();
        assertEquals(2, logs.size());
        assertTrue(logs.stream().allMatch(log -> log.level() == LogLevel.INFO && log.data() instanceof String));
    }
}
