package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Component;

/** Asks for a form whose every primitive field has a default value (SEP-1034). */
@Component(service = Tool.class)
@McpTool(name = "test_elicitation_sep1034_defaults",
        description = "Tests elicitation with default values per SEP-1034")
public final class ElicitationDefaultsTool implements Tool {

    static final String KEY = "defaults_form";
    static final String MESSAGE = "Please review and update the form fields with defaults";

    static final Map<String, Object> SCHEMA = Elicitations.form(
            Fixtures.ordered(
                    "name", Fixtures.ordered("type", "string", "description", "User name",
                            "default", "John Doe"),
                    "age", Fixtures.ordered("type", "integer", "description", "User age",
                            "default", 30),
                    "score", Fixtures.ordered("type", "number", "description", "User score",
                            "default", 95.5),
                    "status", Fixtures.ordered("type", "string", "description", "User status",
                            "enum", List.of("active", "inactive", "pending"), "default", "active"),
                    "verified", Fixtures.ordered("type", "boolean", "description", "Verification status",
                            "default", true)),
            List.of());

    @Override
    public Outcome call(ToolCall call) {
        return Elicitations.askThenReport(call, KEY, MESSAGE, SCHEMA, "Elicitation completed");
    }
}
