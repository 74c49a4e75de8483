package io.quiver.itests.paxexam.operator;

import io.quiver.itests.client.McpClient;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * {@code tools/call} shortcuts for test classes. Kept out of them because JUnit reflects on a test
 * class's methods (lambdas included) outside the framework, where Jackson is not on the class path.
 */
public final class ToolCalls {

    private ToolCalls() {
    }

    /** The result of a {@code tools/call}; a JSON-RPC error fails. */
    public static JsonNode call(McpClient client, String tool, Map<String, ?> arguments) throws Exception {
        return client.result("tools/call", client.toolCall(tool, arguments, null));
    }

    /**
     * The same call, for {@code Eventually}: a JSON-RPC error (the tool is briefly unregistered
     * while its component is reconfigured) comes back as the error object, to be retried.
     */
    public static Callable<JsonNode> calling(McpClient client, String tool, Map<String, ?> arguments) {
        return () -> {
            JsonNode response = client.request("tools/call", client.toolCall(tool, arguments, null));
            return response.has("result") ? response.path("result") : response;
        };
    }

    /** The text of the first content block. */
    public static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString("");
    }

    public static Predicate<JsonNode> textContains(String part) {
        return result -> text(result).contains(part);
    }

    public static boolean isError(JsonNode result) {
        return result.path("isError").asBoolean(false);
    }
}
