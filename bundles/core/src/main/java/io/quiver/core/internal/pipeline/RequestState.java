package io.quiver.core.internal.pipeline;

import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.rpc.McpException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code requestState} of 2026-07-28 multi-round requests: the answers gathered so far, bound
 * to the caller, the method and target (tool, prompt or resource) and an expiry, signed with
 * HMAC-SHA256. The client only echoes it; anything it changes fails verification. Several keys
 * verify (the first signs), so keys can be rotated without breaking rounds in progress.
 */
public final class RequestState {

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();

    private final List<byte[]> keys;
    private final long ttlMs;

    public RequestState(List<String> configuredKeys, long ttlMs) {
        List<byte[]> k = new ArrayList<>();
        for (String key : configuredKeys) {
            k.add(key.getBytes(StandardCharsets.UTF_8));
        }
        if (k.isEmpty()) {
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            k.add(random);
        }
        this.keys = List.copyOf(k);
        this.ttlMs = ttlMs;
    }

    /** Signs the answers of a request in progress. */
    public String sign(String subject, String target, Map<String, JsonNode> answers) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("v", 1);
        body.put("sub", subject);
        body.put("target", target);
        body.put("exp", System.currentTimeMillis() + ttlMs);
        body.set("answers", Json.MAPPER.valueToTree(answers));
        String payload = B64.encodeToString(Json.MAPPER.writeValueAsBytes(body));
        return payload + "." + B64.encodeToString(mac(keys.get(0), payload));
    }

    /**
     * The answers a state carries, after checking its signature, caller, target and expiry.
     *
     * @throws McpException (-32602) when any check fails
     */
    public Map<String, JsonNode> verify(String state, String subject, String target) {
        int dot = state.indexOf('.');
        if (dot <= 0) {
            throw invalid();
        }
        String payload = state.substring(0, dot);
        byte[] signature;
        try {
            signature = B64D.decode(state.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        boolean signed = false;
        for (byte[] key : keys) {
            signed |= MessageDigest.isEqual(mac(key, payload), signature);
        }
        if (!signed) {
            throw invalid();
        }
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(B64D.decode(payload));
        } catch (IllegalArgumentException | JacksonException e) {
            throw invalid();
        }
        if (!subject.equals(body.path("sub").asString("")) || !target.equals(body.path("target").asString(""))) {
            throw McpException.invalidParams("Invalid params: requestState belongs to another request or caller");
        }
        if (body.path("exp").asLong(0) < System.currentTimeMillis()) {
            throw McpException.invalidParams("Invalid params: requestState has expired; start the request again");
        }
        Map<String, JsonNode> answers = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : body.path("answers").properties()) {
            answers.put(e.getKey(), e.getValue());
        }
        return answers;
    }

    private static McpException invalid() {
        return McpException.invalidParams("Invalid params: requestState integrity check failed");
    }

    private static byte[] mac(byte[] key, String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
