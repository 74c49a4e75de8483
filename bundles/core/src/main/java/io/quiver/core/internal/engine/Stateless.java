package io.quiver.core.internal.engine;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.transport.Inbound;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.api.transport.Receipt.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The 2026-07-28 revision: which requests are stateless, and the checks they pass before any
 * handler sees them (the per-request {@code _meta}, the supported revision, the standard headers).
 */
public final class Stateless {

    public static final String VERSION = "2026-07-28";
    public static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
    public static final String META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    public static final String META_CLIENT = "io.modelcontextprotocol/clientInfo";
    public static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
    public static final String META_SERVER = "io.modelcontextprotocol/serverInfo";
    public static final String META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

    /** Methods of the session-based revisions that 2026-07-28 removed. */
    public static final Set<String> REMOVED = Set.of("initialize", "ping", "logging/setLevel", "resources/subscribe",
            "resources/unsubscribe", "tasks/result", "tasks/list");

    private Stateless() {
    }

    /** Whether a request is stateless: its {@code _meta} claims a revision, or its header names 2026-07-28 or later. */
    static boolean claims(ObjectNode params, Inbound inbound) {
        return params.path("_meta").has(META_VERSION)
                || (inbound.protocolVersion() != null && inbound.protocolVersion().compareTo(VERSION) >= 0);
    }

    /** Checks a stateless request's envelope and headers; returns who sent it. */
    static Peer admit(String method, ObjectNode params, Inbound inbound, boolean request) {
        JsonNode meta = params.path("_meta");
        JsonNode version = meta.get(META_VERSION);
        JsonNode capabilities = meta.get(META_CAPABILITIES);
        if (version == null || !version.isString() || capabilities == null || !capabilities.isObject()) {
            throw new McpException(ErrorCodes.INVALID_PARAMS, "Invalid params: _meta must carry " + META_VERSION
                    + " and " + META_CAPABILITIES, null, Reason.INVALID_META);
        }
        JsonNode clientInfo = meta.get(META_CLIENT);
        if (clientInfo != null && !clientInfo.isObject()) {
            throw new McpException(ErrorCodes.INVALID_PARAMS, "Invalid params: " + META_CLIENT + " must be an object",
                    null, Reason.INVALID_META);
        }
        LogLevel logLevel = null;
        JsonNode level = meta.get(META_LOG_LEVEL);
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
                    + " differs from the request's " + META_VERSION + " " + version.stringValue());
        }
        String headerMethod = inbound.header("mcp-method");
        if (headerMethod != null && !headerMethod.trim().equals(method)) {
            throw McpException.headerMismatch("Header mismatch: Mcp-Method " + headerMethod.trim()
                    + " differs from the request's method " + method);
        }
        if (!VERSION.equals(version.stringValue())) {
            throw new McpException(ErrorCodes.UNSUPPORTED_VERSION, "Unsupported protocol version",
                    Map.of("supported", List.of(VERSION), "requested", version.stringValue()),
                    Reason.UNSUPPORTED_VERSION);
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
                String value = decode(header);
                if (value == null || !value.equals(named)) {
                    throw McpException.headerMismatch("Header mismatch: Mcp-Name differs from the request");
                }
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> caps = Json.MAPPER.convertValue(capabilities, Map.class);
        ClientInfo client = new ClientInfo(clientInfo == null ? "unknown" : clientInfo.path("name").asString("unknown"),
                clientInfo == null ? "" : clientInfo.path("version").asString(""), caps);
        CallerIdentity caller = inbound.caller();
        return new Peer(caller, client, VERSION, true, logLevel, inbound.headers());
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

    /**
     * A header value with surrounding whitespace trimmed and the {@code =?base64?…?=} form decoded;
     * {@code null} when that form holds invalid base64 or UTF-8.
     */
    public static String decode(String header) {
        String value = header.strip();
        if (value.length() >= 11 && value.startsWith("=?base64?") && value.endsWith("?=")) {
            String payload = value.substring(9, value.length() - 2);
            if (!payload.matches("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")) {
                return null;
            }
            try {
                byte[] bytes = Base64.getDecoder().decode(payload);
                return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException e) {
                return null;
            }
        }
        return value;
    }
}
