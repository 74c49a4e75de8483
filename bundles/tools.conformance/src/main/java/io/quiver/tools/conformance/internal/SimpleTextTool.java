package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/** Returns one text block. */
@Component(service = Tool.class)
@McpTool(name = "test_simple_text", blocking = false, description = "Tests simple text content response")
public final class SimpleTextTool implements Tool {

    static final String TEXT = "This is a simple text response for testing.";

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.text(TEXT);
    }
}
