package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/**
 * Declares its {@code region} argument as a header ({@code x-mcp-header}), so a 2026-07-28 client
 * also sends it as {@code Mcp-Param-Region}, which the server checks against the body. Echoes the region.
 */
@Component(service = Tool.class)
@McpTool(name = "test_custom_header",
        description = "Echoes its region argument, which clients also send as the Mcp-Param-Region header",
        inputSchema = """
                {"type": "object",
                 "properties": {"region": {"type": "string", "x-mcp-header": "Region",
                                           "description": "A region name, mirrored in the Mcp-Param-Region header"}},
                 "required": ["region"]}""")
public final class CustomHeaderTool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.text("Region: " + Fixtures.string(call.arguments(), "region", ""));
    }
}
