package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import org.osgi.service.component.annotations.Component;

/** Fails on purpose, as a result the model can read ({@code isError: true}), not a protocol error. */
@Component(service = Tool.class)
@McpTool(name = "test_error_handling", blocking = false, description = "Tests error response handling")
public final class ErrorHandlingTool implements Tool {

    static final String MESSAGE = "This tool intentionally returns an error for testing";

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.done(ToolResult.error(MESSAGE));
    }
}
