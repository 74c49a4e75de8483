package io.quiver.core.internal.pipeline;

import io.quiver.core.internal.json.Json;
import java.nio.charset.StandardCharsets;
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
    private static final JsonMapper CANONICAL = JsonMapper.builder(Json.FACTORY)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

    /** Cloned for each digest: looking the algorithm up costs more than hashing a call's arguments. */
    private static final MessageDigest SHA_256;
    private static final HexFormat HEX = HexFormat.of();
    /** The digest of {@code {}}. */
    private static final String EMPTY;

    static {
        try {
            SHA_256 = MessageDigest.getInstance("SHA-256");
            EMPTY = "sha256:" + HEX.formatHex(MessageDigest.getInstance("SHA-256").digest("{}".getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ArgumentsDigest() {
    }

    /** The digest of arguments as received, or {@code null} for none. */
    static String of(JsonNode arguments) {
        if (arguments == null) {
            return null;
        }
        if (arguments.isObject() && arguments.isEmpty()) {
            return EMPTY; // a tool without arguments: the common case, and always the same digest
        }
        try {
            byte[] hash = ((MessageDigest) SHA_256.clone()).digest(CANONICAL.writeValueAsBytes(arguments));
            return "sha256:" + HEX.formatHex(hash);
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
    }
}
