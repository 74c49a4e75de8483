package io.quiver.auth.apikeys.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The form of an API key ({@code qvk_} and 43 base64url characters: 32 random bytes, no padding) and
 * of what is stored instead of it ({@code sha256:} and the 64 lowercase hex digits of the SHA-256 of
 * the key's UTF-8 bytes). {@code quiver apikey create} in the launcher makes both the same way.
 *
 * <p>A fast hash is enough: a key holds 256 random bits, so nobody can guess it, nor find it from its
 * hash, however many hashes a second they compute. Slow password hashes (bcrypt, Argon2) protect
 * secrets people choose; here they would only cost every request their time.
 */
final class KeyHash {

    /** What every API key starts with; a token without it is another authenticator's. */
    static final String PREFIX = "qvk_";
    /** What a stored hash starts with: the algorithm, so another can follow one day. */
    static final String HASH_PREFIX = "sha256:";

    private static final Pattern HASH = Pattern.compile("sha256:[0-9a-f]{64}");
    private static final int KEY_LENGTH = PREFIX.length() + 43;

    private KeyHash() {
    }

    /**
     * Whether a token has the form of an API key (it may still be unknown). Checked on every
     * authenticated request, character by character: ~25 ns where the regular expression it replaces
     * took ~350 (~2% of such a request's CPU in a profile; docs/BENCHMARKS.md).
     */
    static boolean isWellFormed(String token) {
        if (token.length() != KEY_LENGTH || !token.startsWith(PREFIX)) {
            return false;
        }
        for (int i = PREFIX.length(); i < KEY_LENGTH; i++) {
            char c = token.charAt(i);
            boolean base64url = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_';
            if (!base64url) {
                return false;
            }
        }
        return true;
    }

    /** The SHA-256 of a key's UTF-8 bytes. */
    static byte[] digest(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The digest a stored hash names, or null when it is not {@code sha256:} and 64 lowercase hex digits. */
    static byte[] parse(String hash) {
        String h = hash == null ? "" : hash.trim();
        return HASH.matcher(h).matches() ? HexFormat.of().parseHex(h, HASH_PREFIX.length(), h.length()) : null;
    }

    /** The stored form of a digest: {@code sha256:<hex>}. */
    static String format(byte[] digest) {
        return HASH_PREFIX + HexFormat.of().formatHex(digest);
    }
}
