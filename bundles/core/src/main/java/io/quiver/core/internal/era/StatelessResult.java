package io.quiver.core.internal.era;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.quiver.core.internal.messages.Meta;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A result as the stateless era writes it: the result's own properties, then its {@code resultType},
 * its {@code _meta} with the server's identity added, and cache hints ({@code ttlMs},
 * {@code cacheScope}) on complete discover, list and read results.
 *
 * @param result the result, written in place (its own {@code _meta} is merged into this one)
 */
record StatelessResult(@JsonUnwrapped @JsonIgnoreProperties({"_meta"}) Result result, String resultType,
        @JsonProperty("_meta") Map<String, Object> meta, Long ttlMs, String cacheScope) {

    private static final Set<String> CACHEABLE = Set.of("server/discover", "tools/list", "prompts/list",
            "resources/list", "resources/templates/list", "resources/read");

    static StatelessResult of(String method, Result result, EngineSettings settings) {
        Map<String, Object> meta = new LinkedHashMap<>();
        if (result.meta() != null) {
            meta.putAll(result.meta());
        }
        meta.put(Meta.SERVER, Map.of("name", settings.config().serverName(), "version", settings.serverVersion()));
        String type = result.resultType();
        boolean cached = CACHEABLE.contains(method) && "complete".equals(type);
        return new StatelessResult(result, type, meta,
                cached ? Long.valueOf("resources/read".equals(method) ? settings.config().readTtlMs()
                        : settings.config().listTtlMs()) : null,
                cached ? settings.config().cacheScope() : null);
    }
}
