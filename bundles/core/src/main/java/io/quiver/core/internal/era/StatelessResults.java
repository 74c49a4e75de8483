package io.quiver.core.internal.era;

import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.request.Meta;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every 2026-07-28 result carries: {@code resultType}, the server's identity in {@code _meta},
 * and cache hints ({@code ttlMs}, {@code cacheScope}) on discover, list and read results.
 */
public final class StatelessResults {

    /** A handler's answer that keeps its stream open (the result comes later, if ever). */
    public static final Object KEEP_OPEN = new Object();

    private static final Set<String> CACHEABLE = Set.of("server/discover", "tools/list", "prompts/list",
            "resources/list", "resources/templates/list", "resources/read");

    private StatelessResults() {
    }

    static Object decorate(String method, Object result, EngineSettings settings) {
        if (result == KEEP_OPEN) {
            return result;
        }
        JsonNode tree = Json.MAPPER.valueToTree(result);
        if (!tree.isObject()) {
            return result;
        }
        ObjectNode node = (ObjectNode) tree;
        if (!node.has("resultType")) {
            node.put("resultType", "complete");
        }
        ObjectNode meta = node.has("_meta") && node.get("_meta").isObject() ? (ObjectNode) node.get("_meta")
                : node.putObject("_meta");
        ObjectNode server = meta.putObject(Meta.SERVER);
        server.put("name", settings.config().serverName());
        server.put("version", settings.serverVersion());
        if (CACHEABLE.contains(method) && "complete".equals(node.path("resultType").asString())) {
            if (!node.has("ttlMs")) {
                node.put("ttlMs", "resources/read".equals(method) ? settings.config().readTtlMs() : settings.config().listTtlMs());
            }
            if (!node.has("cacheScope")) {
                node.put("cacheScope", settings.config().cacheScope());
            }
        }
        return node;
    }
}
