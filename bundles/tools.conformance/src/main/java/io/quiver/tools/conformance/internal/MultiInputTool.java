package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** Asks two questions at once while running as a task. */
@Component(service = Tool.class)
@McpTool(name = "multi_input", taskSupport = "optional",
        description = "Asks for two answers at the same time, then combines them")
public final class MultiInputTool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        List<InputRequest> missing = new ArrayList<>();
        for (String key : List.of("first", "second")) {
            if (call.answer(key).isEmpty()) {
                missing.add(new InputRequest.Elicitation(key, "Answer " + key, Elicitations.form(
                        Fixtures.ordered("name", Fixtures.ordered("type", "string"),
                                "confirm", Fixtures.ordered("type", "boolean")), List.of("name"))));
            }
        }
        if (!missing.isEmpty()) {
            return Outcome.needsInput(missing.toArray(InputRequest[]::new));
        }
        return Outcome.text("Both answered: " + Elicitations.accepted(call, "first", "name").orElse("?") + ", "
                + Elicitations.accepted(call, "second", "name").orElse("?"));
    }
}
