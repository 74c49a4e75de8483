package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.AudioContent;
import org.osgi.service.component.annotations.Component;

/** Returns one WAV audio block. */
@Component(service = Tool.class)
@McpTool(name = "test_audio_content", blocking = false, description = "Tests audio content response")
public final class AudioContentTool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.done(ToolResult.of(new AudioContent(Fixtures.WAV_BASE64, Fixtures.WAV)));
    }
}
