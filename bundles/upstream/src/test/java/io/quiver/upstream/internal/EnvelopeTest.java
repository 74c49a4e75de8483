package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import tools.jackson.databind.json.JsonMapper;

class EnvelopeTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static Outcome result(String json) {
        return ProxyTool.outcome(JSON.readTree(json));
    }

    private static String textResult(String text, boolean isError) {
        return JSON.writeValueAsString(Map.of("content", List.of(Map.of("type", "text", "text", text)), "isError", isError));
    }

    private static ToolResult done(Outcome o) {
        return assertInstanceOf(Outcome.Done.class, o).result();
    }

    @Test
    void ordinaryResultsPassUnchanged() {
        ToolResult r = done(result("""
                {"content": [{"type": "text", "text": "hi", "annotations": {"audience": ["user"], "priority": 0.5}},
                             {"type": "image", "data": "AAAA", "mimeType": "image/png"}],
                 "structuredContent": {"n": 1}, "isError": false, "_meta": {"k": "v"}}"""));
        assertEquals(2, r.content().size());
        assertEquals("hi", ((TextContent) r.content().get(0)).text());
        assertEquals(List.of("user"), ((TextContent) r.content().get(0)).annotations().audience());
        assertEquals("image/png", ((ImageContent) r.content().get(1)).mimeType());
        assertEquals(Map.of("n", 1), r.structuredContent());
        assertEquals(Map.of("k", "v"), r.meta());
        assertFalse(r.isError());
        // JSON that is not an envelope, and two blocks, are passed on as they are
        assertEquals("{\"outcome\":\"done\"}", ((TextContent) done(result(textResult("{\"outcome\":\"done\"}", false)))
                .content().get(0)).text());
        assertEquals(2, done(result("""
                {"content": [{"type": "text", "text": "{\\"io.quiver/outcome\\": \\"error\\", \\"message\\": \\"m\\"}"},
                             {"type": "text", "text": "more"}]}""")).content().size());
    }

    @Test
    void doneErrorAndNeedsInput() {
        ToolResult ok = done(result(textResult("{\"io.quiver/outcome\": \"done\", \"content\": \"all good\","
                + " \"structuredContent\": {\"a\": 1}}", false)));
        assertEquals("all good", ((TextContent) ok.content().get(0)).text());
        assertEquals(Map.of("a", 1), ok.structuredContent());
        ToolResult failed = done(result(textResult("{\"io.quiver/outcome\": \"error\", \"message\": \"disk full\"}", false)));
        assertTrue(failed.isError());
        assertEquals("disk full", ((TextContent) failed.content().get(0)).text());
        Outcome.NeedsInput asks = assertInstanceOf(Outcome.NeedsInput.class, result(textResult("""
                {"io.quiver/outcome": "needs_input", "requests": [
                  {"key": "branch", "message": "Which branch?", "schema": {"type": "object",
                   "properties": {"branch": {"type": "string"}}}},
                  {"key": "ok", "message": "Sure?"},
                  {"key": "token", "message": "Your token", "sensitive": true}]}""", false)));
        assertEquals(3, asks.requests().size());
        InputRequest.Elicitation first = (InputRequest.Elicitation) asks.requests().get(0);
        assertEquals("branch", first.key());
        assertEquals("Which branch?", first.message());
        assertEquals("object", first.requestedSchema().get("type"));
        assertEquals("object", ((InputRequest.Elicitation) asks.requests().get(1)).requestedSchema().get("type"));
        assertFalse(first.sensitive());
        assertTrue(((InputRequest.Elicitation) asks.requests().get(2)).sensitive(), "a secret is marked for the host");
    }

    @Test
    void upstreamErrorWinsOverAStatedSuccess() {
        ToolResult r = done(result(textResult("{\"io.quiver/outcome\": \"done\", \"content\": \"fine\"}", true)));
        assertTrue(r.isError());
    }

    @Test
    void aMalformedEnvelopeFailsTheCall() {
        for (String bad : List.of("{\"io.quiver/outcome\": \"error\"}", "{\"io.quiver/outcome\": \"needs_input\", \"requests\": []}",
                "{\"io.quiver/outcome\": \"needs_input\", \"requests\": [{\"message\": \"no key\"}]}",
                "{\"io.quiver/outcome\": \"maybe\"}",
                "{\"io.quiver/outcome\": \"needs_input\", \"requests\": [{\"key\": \"k\", \"message\": \"m\", \"sensitive\": \"yes\"}]}",
                "{\"io.quiver/outcome\": \"done\", \"content\": 5}")) {
            ToolResult r = done(result(textResult(bad, false)));
            assertTrue(r.isError(), bad);
            assertTrue(((TextContent) r.content().get(0)).text().contains("not valid"), bad);
        }
        assertNull(ProxyTool.envelope("not json {", false));
    }
}
