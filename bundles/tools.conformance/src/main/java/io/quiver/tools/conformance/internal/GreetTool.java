package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/**
 * Greets by name, synchronously (the tasks scenarios' sync-only tool). Without a name it greets the
 * world, so it also succeeds when called with no arguments.
 */
@Component(service = Tool.class)
@McpTool(name = "greet",
        description = "Greets someone by name: returns \"Hello, <name>!\"",
        inputSchema = """
                {"type": "object",
                 "properties": {"name": {"type": "string", "description": "Who to greet (default: World)"}}}""")
public final class GreetTool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.text("Hello, " + Fixtures.string(call.arguments(), "name", "World") + "!");
    }
}
