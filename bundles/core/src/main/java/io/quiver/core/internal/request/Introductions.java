package io.quiver.core.internal.request;

import io.quiver.api.ClientInfo;
import io.quiver.core.internal.json.Json;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The client as its {@code initialize} or a 2026-07-28 request's {@code _meta} introduces it. */
public final class Introductions {

    private Introductions() {
    }

    /**
     * @param clientInfo its {@code clientInfo} object, or {@code null}
     * @param capabilities its capabilities object, or {@code null}: read from the tree as it is (no round trip
     *                     through a token buffer), nothing made for none or {@code {}}
     */
    public static ClientInfo client(JsonNode clientInfo, JsonNode capabilities) {
        @SuppressWarnings("unchecked")
        Map<String, Object> caps = capabilities == null || capabilities.isEmpty() ? Map.of()
                : Json.MAPPER.treeToValue(capabilities, Map.class);
        return new ClientInfo(clientInfo == null ? "unknown" : clientInfo.path("name").asString("unknown"),
                clientInfo == null ? "" : clientInfo.path("version").asString(""), caps);
    }
}
