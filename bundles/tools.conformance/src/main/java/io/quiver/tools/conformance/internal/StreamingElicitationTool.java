package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import org.osgi.service.component.annotations.Component;

/**
 * Asks for a confirmation mid-call. On 2026-07-28 that must come back as an {@code input_required}
 * result, never as a request the server sends on the response stream.
 */
@Component(service = Tool.class)
@McpTool(name = "test_streaming_elicitation",
        description = "Asks for user input during a call, to check that no server request appears on the response stream")
public final class StreamingElicitationTool implements Tool {

    static final String KEY = "stream_confirm";
    static final InputRequest.Elicitation ASK =
            Elicitations.oneField(KEY, "Continue streaming?", "proceed", "boolean", "Whether to continue");

    @Override
    public Outcome call(ToolCall call) {
        return call.answer(KEY).isPresent() ? Outcome.text("Streaming complete") : Outcome.needsInput(ASK);
    }
}
