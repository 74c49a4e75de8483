package io.quiver.core.internal.pipeline;

import io.quiver.core.internal.request.Peer;
import io.quiver.core.internal.rpc.McpException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * {@code x-mcp-header} (2026-07-28): a tool argument whose schema names a header must arrive in
 * {@code Mcp-Param-<name>} too, with the same value, so intermediaries can route on it.
 */
public final class ParamHeaders {

    private ParamHeaders() {
    }

    /**
     * Checks every annotated argument, also inside objects: an annotation is reachable from the schema's root
     * through {@code properties} alone, and its value is the one at that path of the arguments (none there: no
     * header is asked for).
     */
    static void check(JsonNode inputSchema, JsonNode arguments, Peer peer) {
        if (arguments == null || !arguments.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> property : inputSchema.path("properties").properties()) {
            JsonNode value = arguments.get(property.getKey());
            if (value == null || value.isNull()) {
                continue;
            }
            JsonNode header = property.getValue().get("x-mcp-header");
            if (header == null || !header.isString()) {
                if (value.isObject() && property.getValue().has("properties")) {
                    check(property.getValue(), value, peer); // a nested object's own annotated properties
                }
                continue;
            }
            String name = "Mcp-Param-" + header.stringValue();
            String sent = peer.header(name.toLowerCase(Locale.ROOT));
            if (sent == null) {
                throw McpException.headerMismatch("Header mismatch: " + name + " is required");
            }
            String decoded = decode(sent);
            if (decoded == null || !matches(value, decoded)) {
                throw McpException.headerMismatch("Header mismatch: " + name + " differs from argument "
                        + property.getKey());
            }
        }
    }

    private static boolean matches(JsonNode value, String header) {
        if (value.isString()) {
            return value.stringValue().equals(header);
        }
        if (value.isBoolean()) {
            return String.valueOf(value.booleanValue()).equals(header);
        }
        if (value.isNumber()) {
            try {
                return new BigDecimal(header).compareTo(value.decimalValue()) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return false;
    }

    /**
     * A header value with surrounding whitespace trimmed and the {@code =?base64?…?=} form decoded;
     * {@code null} when that form holds invalid base64 or UTF-8, or when a value not in that form holds
     * anything but visible ASCII and spaces (a client must send any other text, a tab too, in base64).
     */
    public static String decode(String header) {
        String value = header.strip();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) { // controls and tab too, as a client's encoder sends those in base64
                return null;
            }
        }
        if (value.length() >= 11 && value.startsWith("=?base64?") && value.endsWith("?=")) {
            String payload = value.substring(9, value.length() - 2);
            if (!payload.matches("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")) {
                return null;
            }
            try {
                byte[] bytes = Base64.getDecoder().decode(payload);
                return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
            } catch (IllegalArgumentException | CharacterCodingException e) {
                return null;
            }
        }
        return value;
    }
}
