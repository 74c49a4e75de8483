package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** Asks the user to confirm while running as a task, then "deletes" the file. */
@Component(service = Tool.class)
@McpTool(name = "confirm_delete", taskSupport = "optional",
        description = "Asks for confirmation, then deletes the file (nothing is really deleted)",
        inputSchema = """
                {"type": "object", "properties": {"filename": {"type": "string", "description": "The file"}}}""")
public final class ConfirmDeleteTool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        String file = Fixtures.string(call.arguments(), "filename", "file");
        return Elicitations.accepted(call, "confirm", "confirm")
                .map(confirm -> Outcome.text(Boolean.TRUE.equals(confirm) ? "Deleted " + file : "Kept " + file))
                .orElseGet(() -> Outcome.needsInput(confirm(file)));
    }

    private static InputRequest confirm(String file) {
        return new InputRequest.Elicitation("confirm", "Delete " + file + "?", Elicitations.form(
                Fixtures.ordered("confirm", Fixtures.ordered("type", "boolean", "description", "Delete it")),
                List.of("confirm")));
    }
}
