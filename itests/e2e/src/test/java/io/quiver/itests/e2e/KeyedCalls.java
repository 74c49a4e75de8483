package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quiver.itests.client.McpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * What the permission and tenant tests do as a caller with an API key: 2026-07-28 requests with its
 * bearer header, and reading the audit trail the calls leave.
 */
final class KeyedCalls {

    private static final Duration T = Duration.ofSeconds(10);

    private KeyedCalls() {
    }

    /** The names of the tools the key's caller sees at that endpoint. */
    static List<String> toolNames(String url, String key) throws Exception {
        HttpResponse<String> r = Probe.statelessExchange(url, "tools/list", null, Map.of(), Credentials.bearer(key), T);
        assertEquals(200, r.statusCode(), r.body());
        List<String> names = new ArrayList<>();
        McpClient.JSON.readTree(r.body()).path("result").path("tools").forEach(t -> names.add(t.path("name").asString()));
        return names;
    }

    /** A {@code tools/call} as the key's caller; the JSON-RPC response. */
    static JsonNode call(String url, String key, String tool, Map<String, Object> arguments) throws Exception {
        HttpResponse<String> r = Probe.statelessExchange(url, "tools/call", tool,
                Map.of("name", tool, "arguments", arguments), Credentials.bearer(key), T);
        assertEquals(200, r.statusCode(), r.body());
        return McpClient.JSON.readTree(r.body());
    }

    /** The first text block of a call's result. */
    static String text(JsonNode response) {
        return response.path("result").path("content").path(0).path("text").asString();
    }

    /** The first entry of the server's audit trail that matches, waiting for it as long as {@code limit}. */
    static JsonNode awaitAudit(Path home, Predicate<JsonNode> match, Duration limit) throws Exception {
        Path audit = home.resolve("audit/calls.jsonl");
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(audit)) {
                for (String line : Files.readAllLines(audit)) {
                    JsonNode entry = McpClient.JSON.readTree(line);
                    if (match.test(entry)) {
                        return entry;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no such audit entry:\n" + (Files.exists(audit) ? Files.readString(audit) : "no file"));
    }
}
