package io.quiver.core.internal.pipeline;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallEvent;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.rpc.McpException;

/** Stage 1: the tool a call names, as the catalog has it now; an unknown name is a protocol error. */
final class Resolve {

    private final Catalog catalog;

    Resolve(Catalog catalog) {
        this.catalog = catalog;
    }

    /** The tool of that name the caller's catalog has, or {@code null}. */
    ToolEntry find(CallerIdentity caller, String name) {
        return catalog.tools(caller).get(name);
    }

    void resolve(Call call) {
        ToolEntry tool = find(call.scope().caller(), call.name());
        if (tool == null) {
            call.step("resolve", false, "no such tool");
            call.end(CallEvent.Ending.INVALID, "Unknown tool");
            throw unknownTool(call.name());
        }
        call.tool(tool);
    }

    /** What a caller hears of a tool that is not there, or that it may not see: the same. */
    static McpException unknownTool(String name) {
        return McpException.invalidParams("Unknown tool: " + name);
    }
}
