package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import java.util.Map;

/** The tool {@code test_trigger_tool_change} registers and unregisters (not a component of its own). */
final class DynamicTool implements Tool {

    static final String NAME = "test_dynamic_tool";

    static final Map<String, Object> PROPERTIES = Fixtures.ordered(
            McpTool.PREFIX_ + "name", NAME,
            McpTool.PREFIX_ + "description",
            "A tool that test_trigger_tool_change adds to and removes from the tool list",
            McpTool.PREFIX_ + "inputSchema", "{\"type\":\"object\"}");

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.text("This tool comes and goes with test_trigger_tool_change");
    }
}
