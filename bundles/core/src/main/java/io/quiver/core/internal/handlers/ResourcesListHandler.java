package io.quiver.core.internal.handlers;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.Cursor;
import io.quiver.core.internal.catalog.ResourceEntry;
import io.quiver.core.internal.messages.Lists;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import java.util.function.IntSupplier;
import tools.jackson.databind.node.ObjectNode;

/** {@code resources/list}: fixed resources in URI order. */
final class ResourcesListHandler implements MethodHandler<Lists.Resources> {

    private final Catalog catalog;
    private final IntSupplier pageSize;

    ResourcesListHandler(Catalog catalog, IntSupplier pageSize) {
        this.catalog = catalog;
        this.pageSize = pageSize;
    }

    @Override
    public Lists.Resources handle(RequestScope scope, ObjectNode params) {
        Cursor.Page<ResourceEntry> page = Cursor.page(catalog.resources().values(), ResourceEntry::uri,
                Params.cursor(params), pageSize.getAsInt());
        return new Lists.Resources(page.items().stream().map(ResourceEntry::descriptor).toList(), page.nextCursor());
    }
}
