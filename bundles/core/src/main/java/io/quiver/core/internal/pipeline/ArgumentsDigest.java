package io.quiver.core.internal.pipeline;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The digest a {@code CallEvent} carries of a call's arguments: {@code sha256:} and the hex SHA-256 of
 * their canonical JSON. Canonical so that the same arguments give the same digest however the client
 * ordered or spaced them: object members sorted by name, no whitespace, UTF-8, numbers as parsed
 * ({@code 1.10} and {@code 1.1} are one number). Nulls are kept: {@code {"a":null}} is not {@code {}}.
 */
final class ArgumentsDigest {

    /** A plain mapper, not the engine's: that one leaves nulls out, which would merge different arguments. */
    private static final JsonMapper CANONICAL = JsonMapper.builder()
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

    private ArgumentsDigest() {
    }

    /** The digest of arguments as received, or {@code null} for none. */
    static String of(JsonNode arguments) {
        if (arguments == null) {
            return null;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(CANONICAL.writeValueAsBytes(arguments));
            return "sha256:" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
