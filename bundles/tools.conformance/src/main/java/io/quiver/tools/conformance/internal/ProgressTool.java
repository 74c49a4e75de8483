package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.RequestContext;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/** Reports progress 0, 50 and 100 of 100, a short pause apart, then returns. */
@Component(service = Tool.class)
@McpTool(name = "test_tool_with_progress", description = "Tests tool that reports progress notifications")
public final class ProgressTool implements Tool {

    private static final int TOTAL = 100;
    private static final int[] STEPS = {0, 50, 100};

    @Override
    public Outcome call(ToolCall call) throws InterruptedException {
        RequestContext context = call.context();
        for (int step : STEPS) {
            if (step > 0) {
                Fixtures.pause(Fixtures.STEP_MILLIS);
            }
            context.progress(step, (double) TOTAL, "Completed step " + step + " of " + TOTAL);
        }
        return Outcome.text("Progress test completed: reported 0, 50 and 100 of " + TOTAL);
    }
}
