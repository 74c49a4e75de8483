package io.quiver.upstream.internal;

import java.util.ArrayList;
import java.util.List;

import io.quiver.api.ProtocolError;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceRequest;
import io.quiver.api.resource.ResourceTemplate;
import io.quiver.api.resource.Subscribable;
import io.quiver.lib.content.ContentJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream resource, or a family of them named by a URI template, as a Quiver {@link Resource} or
 * {@link ResourceTemplate}: each {@code resources/read} is passed on to the server with the URI the
 * caller read ({@link Forwarded}), and its contents passed back. A resource the server says it does
 * not have ({@value #RESOURCE_NOT_FOUND}; in a stateless revision, which made a missing resource invalid
 * params, {@value #INVALID_PARAMS}) is none here either: Quiver answers as it does for any missing
 * resource, with the code of the caller's revision (and a template further on may still have it).
 *
 * <p>One proxy serves every resource and template of a connection. The URIs Quiver's clients subscribe to
 * reach it as {@link Subscribable} calls, and the server is asked for their updates while someone listens
 * ({@link Upstream#watch}).
 */
final class ProxyResource implements Resource, ResourceTemplate, Subscribable {

    /** The error a session revision's server gives for a resource it does not have. */
    static final int RESOURCE_NOT_FOUND = -32002;
    /** The error a stateless revision's server gives for a resource it does not have. */
    static final int INVALID_PARAMS = -32602;

    private final Upstream upstream;
    private final Upstream.Generation generation;

    ProxyResource(Upstream upstream, Upstream.Generation generation) {
        this.upstream = upstream;
        this.generation = generation;
    }

    @Override
    public void subscribed(String uri) {
        upstream.watch(generation, uri, true);
    }

    @Override
    public void unsubscribed(String uri) {
        upstream.watch(generation, uri, false);
    }

    @Override
    public List<ResourceContents> read(ResourceRequest request) {
        ObjectNode params = McpClient.JSON.createObjectNode().put("uri", request.uri());
        JsonNode result;
        try {
            result = Forwarded.request(upstream, "resources/read", params, request.context());
        } catch (ProtocolError e) {
            Upstream.Generation g = upstream.ready();
            if (e.code() == RESOURCE_NOT_FOUND || (e.code() == INVALID_PARAMS && g != null && g.client.isStateless())) {
                return List.of();
            }
            throw e;
        }
        List<ResourceContents> contents = new ArrayList<>();
        for (JsonNode c : result.path("contents")) {
            if (c.isObject()) {
                contents.add(ContentJson.resource(c));
            }
        }
        return contents;
    }
}
