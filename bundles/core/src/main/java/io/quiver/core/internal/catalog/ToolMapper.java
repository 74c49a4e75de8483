package io.quiver.core.internal.catalog;

import io.quiver.core.internal.json.Json;
import tools.jackson.databind.json.JsonMapper;

/**
 * A tool's own Jackson mapper, made on first use. Jackson caches what it learns of a class; a cache
 * shared by all tools would keep every removed or updated tool bundle's class loader alive, so each
 * tool gets its own, dropped with the tool. Made lazily because most tools never need it.
 */
public final class ToolMapper {

    private volatile JsonMapper mapper;

    public JsonMapper get() {
        JsonMapper m = mapper;
        if (m == null) {
            synchronized (this) {
                m = mapper;
                if (m == null) {
                    m = Json.MAPPER.rebuild().build();
                    mapper = m;
                }
            }
        }
        return m;
    }
}
