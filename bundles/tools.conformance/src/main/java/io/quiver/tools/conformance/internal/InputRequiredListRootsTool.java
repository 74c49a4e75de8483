package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import org.osgi.service.component.annotations.Component;

/** Asks the client for its roots under the key {@code client_roots} and lists them. */
@Component(service = Tool.class)
@McpTool(name = "test_input_required_result_list_roots",
        description = "MRTR: asks the client for its roots (roots/list under the key client_roots), then lists them")
public final class InputRequiredListRootsTool implements Tool {

    static final String KEY = "client_roots";

    @Override
    public Outcome call(ToolCall call) {
        return Inputs.roots(call, KEY)
                .map(roots -> Outcome.text("Client roots: " + Inputs.uris(roots)))
                .orElseGet(() -> Outcome.needsInput(new InputRequest.Roots(KEY)));
    }
}
