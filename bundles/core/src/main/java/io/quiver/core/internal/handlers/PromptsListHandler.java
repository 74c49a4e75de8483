package io.quiver.core.internal.handlers;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.Cursor;
import io.quiver.core.internal.catalog.PromptEntry;
import io.quiver.core.internal.messages.Lists;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import java.util.function.IntSupplier;
import tools.jackson.databind.node.ObjectNode;

/** {@code prompts/list}: prompts in name order. */
final class PromptsListHandler implements MethodHandler<Lists.Prompts> {

    private final Catalog catalog;
    private final IntSupplier pageSize;

    PromptsListHandler(Catalog catalog, IntSupplier pageSize) {
        this.catalog = catalog;
        this.pageSize = pageSize;
    }

    @Override
    public Lists.Prompts handle(RequestScope scope, ObjectNode params) {
        Cursor.Page<PromptEntry> page = Cursor.page(catalog.prompts().values(), PromptEntry::name,
                Params.cursor(params), pageSize.getAsInt());
        return new Lists.Prompts(page.items().stream().map(PromptEntry::descriptor).toList(), page.nextCursor());
    }
}
