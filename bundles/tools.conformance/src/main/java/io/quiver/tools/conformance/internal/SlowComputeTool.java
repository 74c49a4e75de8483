package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/** Works for a number of seconds (a task for clients with the tasks extension, else in the call). */
@Component(service = Tool.class)
@McpTool(name = "slow_compute", taskSupport = "optional",
        description = "Computes for the given number of seconds, then reports the label",
        inputSchema = """
                {"type": "object",
                 "properties": {"seconds": {"type": "number", "description": "How long to work"},
                                "label": {"type": "string", "description": "A label for the result"}}}""")
public final class SlowComputeTool implements Tool {

    @Override
    public Outcome call(ToolCall call) throws InterruptedException {
        Object seconds = call.arguments().get("seconds");
        double s = seconds instanceof Number n ? n.doubleValue() : 1;
        Thread.sleep((long) (Math.max(0, s) * 1000));
        return Outcome.text("Computed '" + Fixtures.string(call.arguments(), "label", "result") + "' in " + s + " s");
    }
}
