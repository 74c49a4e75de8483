package io.quiver.core.internal.handlers;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.Cursor;
import io.quiver.core.internal.catalog.ResourceEntry;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import java.util.function.IntSupplier;
import tools.jackson.databind.node.ObjectNode;

/** {@code resources/list}: fixed resources in URI order. */
final class ResourcesListHandler implements MethodHandler {

    private final Catalog catalog;
    private final IntSupplier pageSize;

    ResourcesListHandler(Catalog catalog, IntSupplier pageSize) {
        this.catalog = catalog;
        this.pageSize = pageSize;
    }

    @Override
    public Object handle(RequestScope scope, ObjectNode params) {
        Cursor.Page<ResourceEntry> page = Cursor.page(catalog.resources().values(), ResourceEntry::uri,
                Params.cursor(params), pageSize.getAsInt());
        return ListResults.of("resources", page.items().stream().map(ResourceEntry::descriptor).toList(),
                page.nextCursor());
    }
}
