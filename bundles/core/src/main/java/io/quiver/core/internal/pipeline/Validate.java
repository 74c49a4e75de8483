package io.quiver.core.internal.pipeline;

import com.networknt.schema.Error;
import io.quiver.api.call.CallEvent;
import io.quiver.core.internal.catalog.BoundedText;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.rpc.McpException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Stage 3: the arguments against the tool's input schema (an error result the model can read and fix)
 * and, for 2026-07-28 requests over HTTP, against their {@code Mcp-Param-*} headers (a protocol error:
 * an intermediary may have routed on a header that lies).
 */
final class Validate {

    /** {@code null} when the arguments are valid; else the error result the call answers with. */
    CallToolResult validate(Call call) {
        if (call.scope().peer().headers() != null) {
            try {
                ParamHeaders.check(call.tool().descriptor().inputSchema(), call.arguments(), call.scope().peer());
            } catch (McpException e) {
                call.step("validate", false, e.getMessage());
                call.end(CallEvent.Ending.INVALID, e.getMessage());
                throw e;
            }
        }
        return schema(call, "Invalid arguments for tool " + call.name() + ": ");
    }

    /** Arguments the host edited: the schema again (the headers were the client's, checked before). */
    CallToolResult revalidate(Call call) {
        return schema(call, "The host's edited arguments for tool " + call.name() + " are not valid: ");
    }

    private static CallToolResult schema(Call call, String lead) {
        List<Error> problems;
        try (BoundedText.Budget budget = BoundedText.shared()) { // the patterns of all the arguments together
            problems = call.tool().inputSchema().get().validate(call.arguments());
        }
        if (problems.isEmpty()) {
            return null;
        }
        String text = lead + problems.stream().map(Error::toString).collect(Collectors.joining("; "));
        call.step("validate", false, text);
        call.end(CallEvent.Ending.INVALID, text);
        return CallToolResult.error(text);
    }
}
