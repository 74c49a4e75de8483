package io.quiver.core.internal.handlers;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.Cursor;
import io.quiver.core.internal.catalog.TemplateEntry;
import io.quiver.core.internal.messages.Lists;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import java.util.function.IntSupplier;
import tools.jackson.databind.node.ObjectNode;

/** {@code resources/templates/list}: resource templates in template order. */
final class ResourceTemplatesListHandler implements MethodHandler<Lists.ResourceTemplates> {

    private final Catalog catalog;
    private final IntSupplier pageSize;

    ResourceTemplatesListHandler(Catalog catalog, IntSupplier pageSize) {
        this.catalog = catalog;
        this.pageSize = pageSize;
    }

    @Override
    public Lists.ResourceTemplates handle(RequestScope scope, ObjectNode params) {
        Cursor.Page<TemplateEntry> page = Cursor.page(catalog.templates().values(), TemplateEntry::uriTemplate,
                Params.cursor(params), pageSize.getAsInt());
        return new Lists.ResourceTemplates(page.items().stream().map(TemplateEntry::descriptor).toList(), page.nextCursor());
    }
}
