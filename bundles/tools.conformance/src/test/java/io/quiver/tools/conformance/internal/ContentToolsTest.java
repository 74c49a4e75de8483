package io.quiver.tools.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.LogLevel;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolResult;
import io.quiver.api.content.AudioContent;
import io.quiver.api.content.Content;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.TextContent;
import io.quiver.testing.FakeRequestContext;
import io.quiver.testing.FakeToolCall;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContentToolsTest {

    private static ToolResult done(Tool tool) throws Exception {
        return done(tool, FakeToolCall.of("t", Map.of()));
    }

    private static ToolResult done(Tool tool, FakeToolCall call) throws Exception {
        return assertInstanceOf(Outcome.Done.class, tool.call(call)).result();
    }

    private static String onlyText(ToolResult result) {
        assertEquals(1, result.content().size());
        return assertInstanceOf(TextContent.class, result.content().get(0)).text();
    }

    @Test
    void simpleTextReturnsTheReferenceText() throws Exception {
        ToolResult result = done(new SimpleTextTool());
        assertEquals("This is a simple text response for testing.", onlyText(result));
        assertFalse(result.isError());
    }

    @Test
    void imageIsAPng() throws Exception {
        ToolResult result = done(new ImageContentTool());
        ImageContent image = assertInstanceOf(ImageContent.class, result.content().get(0));
        assertEquals("image/png", image.mimeType());
        byte[] png = Base64.getDecoder().decode(image.data());
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
    }

    @Test
    void audioIsAWav() throws Exception {
        AudioContent audio = assertInstanceOf(AudioContent.class, done(new AudioContentTool()).content().get(0));
        assertEquals("audio/wav", audio.mimeType());
        byte[] wav = Base64.getDecoder().decode(audio.data());
        assertEquals("RIFF", new String(wav, 0, 4, StandardCharsets.US_ASCII));
    }

    @Test
    void embeddedResourceHasUriMimeTypeAndText() throws Exception {
        EmbeddedResource embedded = assertInstanceOf(EmbeddedResource.class,
                done(new EmbeddedResourceTool()).content().get(0));
        ResourceContents.Text text = assertInstanceOf(ResourceContents.Text.class, embedded.resource());
        assertEquals("test://embedded-resource", text.uri());
        assertEquals("text/plain", text.mimeType());
        assertEquals("This is an embedded resource content.", text.text());
    }

    @Test
    void multipleContentTypesAreTextImageAndResource() throws Exception {
        List<String> types = done(new MultipleContentTypesTool()).content().stream().map(Content::type).toList();
        assertEquals(List.of("text", "image", "resource"), types);
    }

    @Test
    void errorHandlingIsAnErrorResultNotAnException() throws Exception {
        ToolResult result = done(new ErrorHandlingTool());
        assertTrue(result.isError());
        assertEquals("This tool intentionally returns an error for testing", onlyText(result));
    }

    @Test
    void loggingToolSendsThreeInfoMessagesInOrder() throws Exception {
        FakeToolCall call = FakeToolCall.of("test_tool_with_logging", Map.of());
        ToolResult result = done(new LoggingTool(), call);
        List<FakeRequestContext.Log> logs = call.context().logs();
        assertEquals(List.of("Tool execution started", "Tool processing data", "Tool execution completed"),
                logs.stream().map(FakeRequestContext.Log::data).toList());
        assertTrue(logs.stream().allMatch(log -> log.level() == LogLevel.INFO));
        assertEquals("Tool with logging executed successfully", onlyText(result));
    }

    @Test
    void progressToolReportsZeroFiftyHundredOfHundred() throws Exception {
        FakeToolCall call = FakeToolCall.of("test_tool_with_progress", Map.of());
        done(new ProgressTool(), call);
        List<FakeRequestContext.Progress> reported = call.context().progressReports();
        assertEquals(List.of(0.0, 50.0, 100.0), reported.stream().map(FakeRequestContext.Progress::progress).toList());
        assertTrue(reported.stream().allMatch(p -> p.total() == 100.0));
    }

    @Test
    void reconnectionToolWaitsThenReturnsTheReferenceText() throws Exception {
        long start = System.nanoTime();
        String text = onlyText(done(new ReconnectionTool()));
        assertTrue(System.nanoTime() - start >= ReconnectionTool.DELAY_MILLIS * 1_000_000);
        assertTrue(text.startsWith("Reconnection test completed successfully."));
    }

    @Test
    void reconnectionToolStopsWhenInterrupted() {
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class,
                    () -> new ReconnectionTool().call(FakeToolCall.of("test_reconnection", Map.of())));
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void jsonSchemaToolEchoesItsArguments() throws Exception {
        String text = onlyText(done(new JsonSchema2020Tool(),
                FakeToolCall.of("json_schema_2020_12_tool", Map.of("name", "Ada", "email", "ada@example.com"))));
        assertEquals("JSON Schema 2020-12 tool called with: {email=ada@example.com, name=Ada}", text);
    }
}
