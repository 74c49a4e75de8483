package io.quiver.transport.http.internal;

import io.quiver.lib.config.TypedConfig;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import tools.jackson.databind.json.JsonMapper;

/**
 * OAuth 2.0 protected-resource metadata (RFC 9728) for the MCP endpoint, at
 * {@code /.well-known/oauth-protected-resource} and, with the endpoint's path appended,
 * {@code /.well-known/oauth-protected-resource/mcp}: where a client that got a 401 learns which
 * authorization servers issue tokens for this resource. Served only while authentication is
 * required (404 otherwise: there is nothing to obtain).
 */
final class ResourceMetadataServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final transient Gatekeeper gate;
    private final transient Supplier<HttpConfig> config;
    /** The endpoint's guard of Host headers, as configured now. */
    private final transient Supplier<RequestGuard> hostGuard;

    ResourceMetadataServlet(Gatekeeper gate, Supplier<HttpConfig> config, Supplier<RequestGuard> hostGuard) {
        this.gate = gate;
        this.config = config;
        this.hostGuard = hostGuard;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (!gate.required()) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        HttpConfig c = config.get();
        if (!hostGuard.get().hostAllowed(req.getHeader("Host"))) {
            // the resource's URL is made of the Host header: a foreign one would be named (and cached) as this resource
            byte[] refusal = "Forbidden: Host not allowed\n".getBytes(StandardCharsets.UTF_8);
            resp.setStatus(HttpServletResponse.SC_FORBIDDEN);
            resp.setContentType("text/plain;charset=utf-8");
            resp.setContentLength(refusal.length);
            resp.getOutputStream().write(refusal);
            return;
        }
        // the resource a client asks about: the path after the well-known prefix (the endpoint's when none)
        String suffix = req.getPathInfo();
        String resource = gate.resource(req, suffix == null || suffix.isEmpty() || suffix.equals("/")
                ? HttpTransport.path(c) : suffix);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("resource", resource);
        List<String> servers = TypedConfig.list(c.authorizationServers());
        if (!servers.isEmpty()) {
            metadata.put("authorization_servers", servers);
        }
        metadata.put("bearer_methods_supported", List.of("header"));
        if (!gate.requiredScopes().isEmpty()) {
            metadata.put("scopes_supported", new TreeSet<>(gate.requiredScopes()));
        }
        metadata.put("resource_name", "Quiver MCP server");
        byte[] body = JSON.writeValueAsBytes(metadata);
        resp.setStatus(HttpServletResponse.SC_OK);
        resp.setContentType(MediaTypes.JSON);
        resp.setHeader("Cache-Control", "max-age=300");
        // public information, fetched by browser-based clients from other origins
        resp.setHeader("Access-Control-Allow-Origin", "*");
        resp.setContentLength(body.length);
        resp.getOutputStream().write(body);
    }
}
