package io.quiver.core.internal.handlers;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.Cursor;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.messages.Lists;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import java.util.function.IntSupplier;
import tools.jackson.databind.node.ObjectNode;

/** {@code tools/list}: the visible tools in name order, one page at a time. */
final class ToolsListHandler implements MethodHandler<Lists.Tools> {

    private final Catalog catalog;
    private final IntSupplier pageSize;

    ToolsListHandler(Catalog catalog, IntSupplier pageSize) {
        this.catalog = catalog;
        this.pageSize = pageSize;
    }

    @Override
    public Lists.Tools handle(RequestScope scope, ObjectNode params) {
        Cursor.Page<ToolEntry> page = Cursor.page(catalog.tools().values(), ToolEntry::name,
                Params.cursor(params), pageSize.getAsInt());
        return new Lists.Tools(page.items().stream().map(ToolEntry::descriptor).toList(), page.nextCursor());
    }
}
