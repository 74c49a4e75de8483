package io.quiver.core.internal.era;

import io.quiver.core.internal.messages.Meta;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.StdSerializer;
import tools.jackson.databind.util.NameTransformer;

/**
 * A result as the stateless era writes it: the result's own properties, then its {@code resultType},
 * its {@code _meta} with the server's identity added, and cache hints ({@code ttlMs},
 * {@code cacheScope}) on complete discover, list and read results.
 *
 * <p>{@link Writer} writes these straight to the generator: the result's properties through its
 * own serializer, the rest as fields. Written as a record with the result {@code @JsonUnwrapped} and
 * a merged {@code _meta} map, it cost about twice the session era's answer and a quarter more memory
 * (JMH, {@code CodecBenchmark}).
 *
 * @param result the result, written in place (its own {@code _meta} is merged into this one)
 * @param serverName the server's name in {@code _meta}
 * @param serverVersion the server's version in {@code _meta}
 * @param ttlMs how long a client may reuse the result, or {@code null}
 * @param cacheScope who may share it, or {@code null}
 */
@JsonSerialize(using = StatelessResult.Writer.class)
record StatelessResult(Result result, String serverName, String serverVersion, Long ttlMs, String cacheScope) {

    private static final Set<String> CACHEABLE = Set.of("server/discover", "tools/list", "prompts/list",
            "resources/list", "resources/templates/list", "resources/read");

    static StatelessResult of(String method, Result result, EngineSettings settings) {
        var config = settings.config();
        boolean cached = CACHEABLE.contains(method) && "complete".equals(result.resultType());
        return new StatelessResult(result, config.serverName(), settings.serverVersion(),
                cached ? Long.valueOf("resources/read".equals(method) ? config.readTtlMs() : config.listTtlMs()) : null,
                cached ? config.cacheScope() : null);
    }

    /** Writes a {@link StatelessResult}; one per mapper, made by Jackson. */
    static final class Writer extends StdSerializer<StatelessResult> {

        /** Each result type's serializer, writing its properties into an object already open. */
        private final ConcurrentMap<Class<?>, ValueSerializer<Object>> inPlace = new ConcurrentHashMap<>();

        Writer() {
            super(StatelessResult.class);
        }

        @Override
        public void serialize(StatelessResult value, JsonGenerator gen, SerializationContext ctxt) {
            Result result = value.result();
            Map<String, Object> own = result.meta();
            Result fields = result.withoutMeta();
            gen.writeStartObject(value);
            inPlace.computeIfAbsent(fields.getClass(),
                    type -> ctxt.findValueSerializer(type).unwrappingSerializer(NameTransformer.NOP))
                    .serialize(fields, gen, ctxt);
            gen.writeStringProperty("resultType", result.resultType());
            gen.writeName("_meta");
            gen.writeStartObject();
            if (own != null) {
                for (Map.Entry<String, Object> entry : own.entrySet()) {
                    if (entry.getValue() != null && !Meta.SERVER.equals(entry.getKey())) {
                        gen.writeName(entry.getKey());
                        ctxt.writeValue(gen, entry.getValue());
                    }
                }
            }
            gen.writeName(Meta.SERVER);
            gen.writeStartObject();
            gen.writeStringProperty("name", value.serverName());
            gen.writeStringProperty("version", value.serverVersion());
            gen.writeEndObject();
            gen.writeEndObject();
            if (value.ttlMs() != null) {
                gen.writeNumberProperty("ttlMs", value.ttlMs());
            }
            if (value.cacheScope() != null) {
                gen.writeStringProperty("cacheScope", value.cacheScope());
            }
            gen.writeEndObject();
        }
    }
}
