package io.quiver.core.internal.pipeline;

import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.rpc.McpException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code requestState} of 2026-07-28 multi-round requests: the answers gathered so far and the
 * input requests the round asked, bound to the caller, the method and target (tool, prompt or
 * resource) and an expiry, sealed with AES-256-GCM: encrypted (the answers, sensitive ones included, are not
 * for whoever sees the state on its way) and authenticated. The client only echoes it; anything it changes
 * fails verification. Each state is good for one retry: a replay is refused like a tampered state
 * (the ids of redeemed states are remembered until they expire, within bounds per caller and overall). Several keys open states (the first
 * seals), so keys can be rotated without breaking rounds in progress.
 */
public final class RequestState {

    /**
     * How many redeemed states are remembered at most, and of one caller. Beyond either, the oldest of the caller
     * with the most are forgotten: a state is bound to its caller, so only that caller could replay one, and no
     * caller can fill the record to refuse the others' states.
     */
    static final int MAX_REMEMBERED = 100_000;
    static final int MAX_REMEMBERED_PER_CALLER = 10_000;

    private static final String CIPHER = "AES/GCM/NoPadding";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final byte[] KEY_LABEL = "quiver requestState AES-256-GCM".getBytes(StandardCharsets.US_ASCII);
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();

    /**
     * What a verified state carries.
     *
     * @param answers the answers of earlier rounds, by input request key ({@code {method, response}} each)
     * @param asked the keys of the input requests the last round asked for: only these may be answered now
     * @param rounds how many times the request has asked for input so far (bounded by maxInputRounds)
     */
    public record Verified(Map<String, JsonNode> answers, Set<String> asked, int rounds) {
    }

    private final SecureRandom random = new SecureRandom();
    /** The key made when none is configured: kept for the engine's life, so a reconfiguration keeps states valid. */
    private final byte[] generated = new byte[32];
    /** Ids of redeemed states with their expiry (epoch ms), by caller, oldest first. Guarded by itself. */
    private final Map<String, LinkedHashMap<String, Long>> redeemed = new HashMap<>();
    /** How many ids {@link #redeemed} holds. */
    private int remembered;
    /** When expired ids were last dropped (epoch ms). */
    private long swept;
    private volatile List<SecretKeySpec> keys;
    private volatile long ttlMs;

    private final int most;
    private final int mostPerCaller;

    public RequestState(List<String> configuredKeys, long ttlMs) {
        this(configuredKeys, ttlMs, MAX_REMEMBERED, MAX_REMEMBERED_PER_CALLER);
    }

    /** With other bounds of the redeemed states remembered (for tests). */
    RequestState(List<String> configuredKeys, long ttlMs, int most, int mostPerCaller) {
        this.most = most;
        this.mostPerCaller = mostPerCaller;
        random.nextBytes(generated);
        configure(configuredKeys, ttlMs);
    }

    /** Takes new keys (the first seals, all open; none: the generated key) and lifetime. */
    public void configure(List<String> configuredKeys, long ttl) {
        List<SecretKeySpec> k = new ArrayList<>();
        for (String key : configuredKeys) {
            k.add(sealingKey(key.getBytes(StandardCharsets.UTF_8)));
        }
        if (k.isEmpty()) {
            k.add(sealingKey(generated));
        }
        this.keys = List.copyOf(k);
        this.ttlMs = ttl;
    }

    /** {@link #sign(String, String, Map, Set, int)} of a request's first round. */
    public String sign(String subject, String target, Map<String, JsonNode> answers, Set<String> asked) {
        return sign(subject, target, answers, asked, 1);
    }

    /**
     * Seals the answers of a request in progress, the keys of the input it asks for now and how many rounds of
     * input it has asked for: encrypted as well as
     * authenticated (AES-256-GCM), since the client carries the answers to the next round, a sensitive one too,
     * and anyone who logs or stores the state it echoes must learn nothing from it.
     */
    public String sign(String subject, String target, Map<String, JsonNode> answers, Set<String> asked, int rounds) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("v", 2);
        body.put("jti", B64.encodeToString(nonce));
        body.put("sub", subject);
        body.put("target", target);
        body.put("exp", System.currentTimeMillis() + ttlMs);
        body.set("answers", Json.MAPPER.valueToTree(answers));
        body.set("asked", Json.MAPPER.valueToTree(asked));
        body.put("rounds", rounds);
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(0), new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = cipher.doFinal(Json.MAPPER.writeValueAsBytes(body));
            byte[] state = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, state, 0, IV_BYTES);
            System.arraycopy(sealed, 0, state, IV_BYTES, sealed.length);
            return B64.encodeToString(state);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(CIPHER + " is not available", e);
        }
    }

    /** The body of a state sealed with one of the keys, or null when none opens it (changed, or not ours). */
    private byte[] open(String state) {
        byte[] raw;
        try {
            raw = B64D.decode(state);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (raw.length < IV_BYTES + TAG_BITS / 8) {
            return null;
        }
        for (SecretKeySpec key : keys) {
            try {
                Cipher cipher = Cipher.getInstance(CIPHER);
                cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, 0, IV_BYTES));
                return cipher.doFinal(raw, IV_BYTES, raw.length - IV_BYTES);
            } catch (AEADBadTagException e) {
                // sealed with another key, or changed: the next key
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(CIPHER + " is not available", e);
            }
        }
        return null;
    }

    /**
     * Checks a state's signature, caller, target and expiry and redeems it: the same state is not
     * accepted twice.
     *
     * @throws McpException (-32602) when any check fails
     */
    public Verified redeem(String state, String subject, String target) {
        byte[] opened = open(state);
        if (opened == null) {
            throw invalid();
        }
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(opened);
        } catch (JacksonException e) {
            throw invalid();
        }
        if (!subject.equals(body.path("sub").asString("")) || !target.equals(body.path("target").asString(""))) {
            throw McpException.invalidParams("Invalid params: requestState belongs to another request or caller");
        }
        long expires = body.path("exp").asLong(0);
        long now = System.currentTimeMillis();
        if (expires < now) {
            throw McpException.invalidParams("Invalid params: requestState has expired; start the request again");
        }
        String id = body.path("jti").asString("");
        if (id.isEmpty() || !remember(subject, id, expires, now)) {
            throw invalid();
        }
        Map<String, JsonNode> answers = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : body.path("answers").properties()) {
            answers.put(e.getKey(), e.getValue());
        }
        Set<String> asked = new LinkedHashSet<>();
        for (JsonNode key : body.path("asked")) {
            asked.add(key.asString(""));
        }
        return new Verified(answers, asked, body.path("rounds").asInt(0));
    }

    /** Records a redeemed state of a caller; false when it was redeemed before. */
    private boolean remember(String caller, String id, long expires, long now) {
        synchronized (redeemed) {
            LinkedHashMap<String, Long> mine = redeemed.computeIfAbsent(caller, c -> new LinkedHashMap<>());
            if (mine.containsKey(id)) {
                return false;
            }
            if (remembered >= most && now - swept > 1_000) {
                swept = now;
                for (Iterator<LinkedHashMap<String, Long>> all = redeemed.values().iterator(); all.hasNext(); ) {
                    LinkedHashMap<String, Long> ids = all.next();
                    int before = ids.size();
                    ids.values().removeIf(exp -> exp < now);
                    remembered -= before - ids.size();
                    if (ids.isEmpty() && ids != mine) {
                        all.remove();
                    }
                }
            }
            if (mine.size() >= mostPerCaller) {
                forgetOldest(mine);
            } else if (remembered >= most) {
                forgetOldest(redeemed.values().stream().max(Comparator.comparingInt(Map::size)).orElse(mine));
            }
            mine.put(id, expires);
            remembered++;
            return true;
        }
    }

    private void forgetOldest(LinkedHashMap<String, Long> ids) {
        Iterator<String> oldest = ids.keySet().iterator();
        if (oldest.hasNext()) {
            oldest.next();
            oldest.remove();
            remembered--;
        }
    }

    /** How many redeemed states of a caller are remembered. */
    int remembered(String caller) {
        synchronized (redeemed) {
            LinkedHashMap<String, Long> ids = redeemed.get(caller);
            return ids == null ? 0 : ids.size();
        }
    }

    private static McpException invalid() {
        return McpException.invalidParams("Invalid params: requestState integrity check failed");
    }

    /** The AES key a configured key seals with: HMAC-SHA256 of a fixed label under it, so any length of key serves. */
    private static SecretKeySpec sealingKey(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return new SecretKeySpec(mac.doFinal(KEY_LABEL), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
