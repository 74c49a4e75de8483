package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.ImageContent;
import org.osgi.service.component.annotations.Component;

/** Returns one PNG image block. */
@Component(service = Tool.class)
@McpTool(name = "test_image_content", blocking = false, description = "Tests image content response")
public final class ImageContentTool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.done(ToolResult.of(new ImageContent(Fixtures.PNG_BASE64, Fixtures.PNG)));
    }
}
