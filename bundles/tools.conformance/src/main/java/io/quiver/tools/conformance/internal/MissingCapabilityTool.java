package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/**
 * Always needs a completion from the client's model. A client that did not declare sampling gets
 * the engine's missing-capability error (-32021) instead of a result.
 */
@Component(service = Tool.class)
@McpTool(name = "test_missing_capability",
        description = "Needs the sampling client capability: asks the client's model once, then reports success")
public final class MissingCapabilityTool implements Tool {

    static final String KEY = "capability_probe";

    @Override
    public Outcome call(ToolCall call) {
        if (call.answer(KEY).isPresent()) {
            return Outcome.text("Success");
        }
        return Outcome.needsInput(Inputs.sampling(KEY, "Reply with OK.", 10));
    }
}
