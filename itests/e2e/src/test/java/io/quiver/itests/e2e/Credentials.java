package io.quiver.itests.e2e;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;

/** API keys for the authentication tests, in the form {@code quiver apikey create} makes them. */
final class Credentials {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Credentials() {
    }

    static String newApiKey() {
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        return "qvk_" + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /** The contents of {@code etc/io.quiver.auth.apikey-NAME.cfg} for a key. */
    static String apiKeyConfig(String key, String subject, String roles, String scopes) {
        return apiKeyConfig(key, subject, "default", roles, scopes);
    }

    /** The contents of {@code etc/io.quiver.auth.apikey-NAME.cfg} for a key of a tenant. */
    static String apiKeyConfig(String key, String subject, String tenant, String roles, String scopes) {
        try {
            String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
            return "hash = sha256:" + hash + "\nsubject = " + subject + "\ntenant = " + tenant + "\nroles = " + roles
                    + "\nscopes = " + scopes + "\nexpires = 2099-01-01T00:00:00Z\n";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }
}
