package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import org.osgi.service.component.annotations.Component;

/** A job that only runs as a task and ends with a tool error after a second. */
@Component(service = Tool.class)
@McpTool(name = "failing_job", taskSupport = "required",
        description = "Runs as a task and fails with a tool error after about a second")
public final class FailingJobTool implements Tool {

    @Override
    public Outcome call(ToolCall call) throws InterruptedException {
        Thread.sleep(1000);
        return Outcome.done(ToolResult.error("The job failed on purpose"));
    }
}
