package io.quiver.core.internal.era;

import io.quiver.api.LogLevel;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.Receipt.Reason;
import io.quiver.api.transport.StreamPolicy;
import io.quiver.core.internal.messages.Meta;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.messages.Views;
import io.quiver.core.internal.pipeline.ParamHeaders;
import io.quiver.core.internal.request.Era;
import io.quiver.core.internal.request.Introductions;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.Peer;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.JsonRpc;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stateless era (2026-07-28): every request carries its revision and capabilities in
 * {@code _meta} and stands alone; input comes back in a retry after {@code input_required}; a client
 * that closes the stream cancels its request; streams are neither primed nor resumed.
 */
public final class StatelessEra implements Era {

    /** Methods of the session era that this one removed. */
    static final Set<String> REMOVED = Set.of("initialize", "ping", "logging/setLevel", "resources/subscribe",
            "resources/unsubscribe", "tasks/result", "tasks/list");

    private static final StreamPolicy STREAM = new StreamPolicy(false, false, true);

    private final Map<String, MethodHandler> handlers;
    private final EngineSettings settings;

    public StatelessEra(Map<String, MethodHandler> handlers, EngineSettings settings) {
        this.handlers = Map.copyOf(handlers);
        this.settings = settings;
    }

    @Override
    public String name() {
        return "stateless era";
    }

    @Override
    public MethodHandler handler(String method) {
        return REMOVED.contains(method) ? null : handlers.get(method);
    }

    @Override
    public boolean asksClient() {
        return false;
    }

    @Override
    public boolean logsUnasked() {
        return false;
    }

    @Override
    public boolean offersTasks() {
        return true;
    }

    @Override
    public int resourceNotFound() {
        // 2026-07-28 made a missing resource an invalid-params error (SEP-2164)
        return ErrorCodes.INVALID_PARAMS;
    }

    @Override
    public StreamPolicy streamPolicy(String version) {
        return STREAM;
    }

    /** The result with what every stateless-era result carries ({@link StatelessResult}). */
    @Override
    public byte[] response(JsonNode id, String method, String version, Result result) {
        return JsonRpc.result(id, StatelessResult.of(method, result, settings), Views.R20260728.class);
    }

    /** The modern error for a revision this server does not speak, naming those it does (the legacy ones too). */
    private static McpException unsupported(String requested) {
        return new McpException(ErrorCodes.UNSUPPORTED_VERSION, "Unsupported protocol version",
                Map.of("supported", ProtocolVersions.NEWEST_FIRST, "requested", requested), Reason.UNSUPPORTED_VERSION);
    }

    /** Whether a message belongs to this era: its {@code _meta} claims a revision, or its header names 2026-07-28 or later. */
    public static boolean claims(ObjectNode params, Inbound inbound) {
        return params.path("_meta").has(Meta.VERSION) || ProtocolVersions.atLeast(inbound.protocolVersion(),
                ProtocolVersions.STATELESS);
    }

    /**
     * Checks a message's envelope and headers before any handler sees it; returns who sent it.
     *
     * @throws McpException with the reason the transport signals when the envelope is not right
     */
    public Peer admit(String method, ObjectNode params, Inbound inbound, boolean request) {
        JsonNode meta = params.path("_meta");
        JsonNode version = meta.get(Meta.VERSION);
        JsonNode capabilities = meta.get(Meta.CAPABILITIES);
        String claimed = inbound.protocolVersion();
        if ((version == null || !version.isString()) && ProtocolVersions.atLeast(claimed, ProtocolVersions.STATELESS)
                && !ProtocolVersions.STATELESS.equals(claimed)) {
            // claimed by its header alone, for a later revision than this server's: that is what to tell the client
            throw unsupported(claimed);
        }
        if (version == null || !version.isString() || capabilities == null || !capabilities.isObject()) {
            throw new McpException(ErrorCodes.INVALID_PARAMS, "Invalid params: _meta must carry " + Meta.VERSION
                    + " and " + Meta.CAPABILITIES, null, Reason.INVALID_META);
        }
        JsonNode clientInfo = meta.get(Meta.CLIENT);
        if (clientInfo != null && !clientInfo.isObject()) {
            throw new McpException(ErrorCodes.INVALID_PARAMS, "Invalid params: " + Meta.CLIENT + " must be an object",
                    null, Reason.INVALID_META);
        }
        LogLevel logLevel = null;
        JsonNode level = meta.get(Meta.LOG_LEVEL);
        if (level != null && !level.isNull()) {
            logLevel = level.isString() ? LogLevel.fromWire(level.stringValue()) : null;
            if (logLevel == null) {
                throw new McpException(ErrorCodes.INVALID_PARAMS, "Invalid params: unknown log level " + level,
                        null, Reason.INVALID_META);
            }
        }
        boolean http = inbound.headers() != null;
        String headerVersion = inbound.protocolVersion();
        if (headerVersion != null && !headerVersion.equals(version.stringValue())) {
            throw McpException.headerMismatch("Header mismatch: MCP-Protocol-Version " + headerVersion
                    + " differs from the request's " + Meta.VERSION + " " + version.stringValue());
        }
        String headerMethod = inbound.header("mcp-method");
        if (headerMethod != null && !headerMethod.trim().equals(method)) {
            throw McpException.headerMismatch("Header mismatch: Mcp-Method " + headerMethod.trim()
                    + " differs from the request's method " + method);
        }
        if (!ProtocolVersions.STATELESS.equals(version.stringValue())) {
            throw unsupported(version.stringValue());
        }
        if (http && request) {
            if (headerVersion == null) {
                throw McpException.headerMismatch("Header mismatch: MCP-Protocol-Version is required");
            }
            if (headerMethod == null) {
                throw McpException.headerMismatch("Header mismatch: Mcp-Method is required");
            }
            String named = namedBy(method, params);
            if (named != null) {
                String header = inbound.header("mcp-name");
                if (header == null) {
                    throw McpException.headerMismatch("Header mismatch: Mcp-Name is required for " + method);
                }
                String value = ParamHeaders.decode(header);
                if (value == null || !value.equals(named)) {
                    throw McpException.headerMismatch("Header mismatch: Mcp-Name differs from the request");
                }
            }
        }
        return new Peer(inbound.caller(), Introductions.client(clientInfo, capabilities), ProtocolVersions.STATELESS,
                logLevel, inbound.headers());
    }

    /** The value {@code Mcp-Name} must carry for a method, or {@code null} when it carries none. */
    static String namedBy(String method, ObjectNode params) {
        String field = switch (method) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
            default -> null;
        };
        if (field == null) {
            return null;
        }
        JsonNode value = params.get(field);
        return value != null && value.isString() ? value.stringValue() : null;
    }
}
