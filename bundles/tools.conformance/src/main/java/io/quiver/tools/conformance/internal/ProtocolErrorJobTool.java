package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/** A job that ends with a protocol error (a task that fails rather than completes). */
@Component(service = Tool.class)
@McpTool(name = "protocol_error_job", taskSupport = "optional",
        description = "Runs as a task and fails with a protocol-level error")
public final class ProtocolErrorJobTool implements Tool {

    @Override
    public Outcome call(ToolCall call) throws InterruptedException {
        Thread.sleep(200);
        throw new ProtocolError(-32602, "The job refuses its parameters");
    }
}
