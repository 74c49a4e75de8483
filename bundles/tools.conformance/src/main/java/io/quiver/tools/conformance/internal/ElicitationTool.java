package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Component;

/** Asks the user for a user name and an e-mail address, showing the {@code message} argument. */
@Component(service = Tool.class)
@McpTool(name = "test_elicitation",
        description = "Tests server-initiated elicitation (user input request)",
        inputSchema = """
                {"type": "object",
                 "properties": {"message": {"type": "string", "description": "The message to show the user"}},
                 "required": ["message"]}""")
public final class ElicitationTool implements Tool {

    static final String KEY = "user_info";

    static final Map<String, Object> SCHEMA = Elicitations.form(
            Fixtures.ordered(
                    "username", Fixtures.ordered("type", "string", "description", "User's response"),
                    "email", Fixtures.ordered("type", "string", "description", "User's email address")),
            List.of("username", "email"));

    @Override
    public Outcome call(ToolCall call) {
        String message = Fixtures.string(call.arguments(), "message", "Please provide your information");
        return Elicitations.askThenReport(call, KEY, message, SCHEMA, "User response");
    }
}
