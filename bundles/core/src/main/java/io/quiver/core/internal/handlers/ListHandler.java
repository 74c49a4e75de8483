package io.quiver.core.internal.handlers;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.Target;
import io.quiver.core.internal.catalog.Cursor;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.pipeline.Authorize;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntSupplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * One of the four lists ({@code tools/list}, {@code resources/list}, {@code resources/templates/list},
 * {@code prompts/list}): what the caller may see, in key order, one page at a time. The call policy
 * filters before paging, so pages are full and a cursor never points into what the caller cannot see.
 *
 * @param <E> the catalog entry
 * @param <D> the descriptor clients get
 * @param <R> the page
 */
final class ListHandler<E, D, R extends Result> implements MethodHandler<R> {

    private final Function<CallerIdentity, List<E>> entries;
    private final Function<E, String> key;
    private final Function<E, Target> target;
    private final Function<E, D> descriptor;
    private final BiFunction<List<D>, String, R> page;
    private final Authorize authorize;
    private final IntSupplier pageSize;

    /**
     * @param entries the entries of the caller's catalog sorted by key
     * @param page makes the page of descriptors and the next cursor
     */
    ListHandler(Function<CallerIdentity, List<E>> entries, Function<E, String> key, Function<E, Target> target,
            Function<E, D> descriptor, BiFunction<List<D>, String, R> page, Authorize authorize,
            IntSupplier pageSize) {
        this.entries = entries;
        this.key = key;
        this.target = target;
        this.descriptor = descriptor;
        this.page = page;
        this.authorize = authorize;
        this.pageSize = pageSize;
    }

    @Override
    public R handle(RequestScope scope, ObjectNode params) {
        List<E> visible = authorize.visible(scope.caller(), entries.apply(scope.caller()), target);
        Cursor.Page<E> cut = Cursor.page(visible, key, Params.cursor(params), pageSize.getAsInt());
        return page.apply(cut.items().stream().map(descriptor).toList(), cut.nextCursor());
    }
}
