package io.quiver.tools.conformance.internal;

import io.quiver.api.LogLevel;
import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.RequestContext;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/** Sends three info log messages to the client, a short pause apart, then returns. */
@Component(service = Tool.class)
@McpTool(name = "test_tool_with_logging", description = "Tests tool that emits log messages during execution")
public final class LoggingTool implements Tool {

    static final String RESULT = "Tool with logging executed successfully";

    @Override
    public Outcome call(ToolCall call) throws InterruptedException {
        RequestContext context = call.context();
        context.log(LogLevel.INFO, Fixtures.LOGGER, "Tool execution started");
        Fixtures.pause(Fixtures.STEP_MILLIS);
        context.log(LogLevel.INFO, Fixtures.LOGGER, "Tool processing data");
        Fixtures.pause(Fixtures.STEP_MILLIS);
        context.log(LogLevel.INFO, Fixtures.LOGGER, "Tool execution completed");
        return Outcome.text(RESULT);
    }
}
