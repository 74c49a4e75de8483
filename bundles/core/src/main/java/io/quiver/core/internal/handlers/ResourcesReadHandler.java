package io.quiver.core.internal.handlers;

import io.quiver.api.RequestContext;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.input.InputResponse;
import io.quiver.api.resource.ResourceRequest;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.messages.ReadResourceResult;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.McpException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code resources/read}: a fixed resource by URI, else the first template that matches and has it;
 * what the call policy hides from the caller is not there for it ({@link ResourceReaders}).
 */
final class ResourcesReadHandler implements MethodHandler<Result> {

    private static final Logger LOG = LoggerFactory.getLogger(ResourcesReadHandler.class);

    private final Catalog catalog;
    private final ToolPipeline pipeline;

    ResourcesReadHandler(Catalog catalog, ToolPipeline pipeline) {
        this.catalog = catalog;
        this.pipeline = pipeline;
    }

    @Override
    public Result handle(RequestScope scope, ObjectNode params) {
        String uri = Params.requireString(params, "uri");
        Result outcome = pipeline.rounds().runAsking(scope, "resources/read " + uri, params,
                answers -> new ReadResourceResult(read(scope, uri, answers)), "Reading the resource failed");
        if (outcome instanceof ReadResourceResult read && read.contents().isEmpty()) {
            throw new McpException(scope.era().resourceNotFound(), "Resource not found", Map.of("uri", uri));
        }
        return outcome;
    }

    private List<ResourceContents> read(RequestScope scope, String uri, Map<String, InputResponse> answers)
            throws Exception {
        ResourceReaders.Found found = ResourceReaders.of(catalog, pipeline.authorize(), scope.caller(), uri);
        if (found.fixed() != null) {
            return orEmpty(found.fixed().resource().read(new Request(uri, Map.of(), scope, answers)));
        }
        for (ResourceReaders.Match match : found.templates()) {
            List<ResourceContents> contents = match.template().template().read(new Request(uri, match.variables(), scope,
                    answers));
            if (contents != null && !contents.isEmpty()) {
                return contents;
            }
        }
        return List.of();
    }

    private static List<ResourceContents> orEmpty(List<ResourceContents> contents) {
        return contents == null ? List.of() : contents;
    }

    private record Request(String uri, Map<String, String> variables, RequestContext context,
            Map<String, InputResponse> answers) implements ResourceRequest {
    }
}
