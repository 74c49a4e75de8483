package io.quiver.tools.conformance.internal;

import io.quiver.api.LogLevel;
import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/**
 * Logs two info messages and returns at once. On 2026-07-28 the engine forwards them only when the
 * request opted in with a log level; the suite checks that none arrive when it did not.
 */
@Component(service = Tool.class)
@McpTool(name = "test_logging_tool",
        description = "Logs two info messages, which reach the client only when its request asked for a log level")
public final class LogLevelOptInTool implements Tool {

    static final String RESULT = "Logging evaluated";

    @Override
    public Outcome call(ToolCall call) {
        call.context().log(LogLevel.INFO, Fixtures.LOGGER, "Logging tool started");
        call.context().log(LogLevel.INFO, Fixtures.LOGGER, "Logging tool finished");
        return Outcome.text(RESULT);
    }
}
