package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.List;
import java.util.Optional;
import org.osgi.service.component.annotations.Component;

/** Asks the client's model to answer the {@code prompt} argument and returns what it said. */
@Component(service = Tool.class)
@McpTool(name = "test_sampling",
        description = "Tests server-initiated sampling (LLM completion request)",
        inputSchema = """
                {"type": "object",
                 "properties": {"prompt": {"type": "string", "description": "The prompt to send to the LLM"}},
                 "required": ["prompt"]}""")
public final class SamplingTool implements Tool {

    static final String KEY = "llm_response";
    static final int MAX_TOKENS = 100;

    @Override
    public Outcome call(ToolCall call) {
        Optional<InputResponse> answer = call.answer(KEY);
        if (answer.isEmpty()) {
            String prompt = Fixtures.string(call.arguments(), "prompt", "");
            InputRequest.SamplingMessage message = new InputRequest.SamplingMessage("user", new TextContent(prompt));
            return Outcome.needsInput(new InputRequest.Sampling(KEY, List.of(message), MAX_TOKENS, null));
        }
        if (answer.get() instanceof InputResponse.Sampled sampled) {
            String text = sampled.content() instanceof TextContent t ? t.text()
                    : "(" + sampled.content().type() + " content)";
            return Outcome.text("LLM response: " + text);
        }
        return Outcome.done(ToolResult.error("Expected a sampling result, got " + answer.get()));
    }
}
