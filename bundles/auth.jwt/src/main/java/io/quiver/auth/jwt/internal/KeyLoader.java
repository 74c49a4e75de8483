package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import io.quiver.lib.config.TypedConfig;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javax.net.ssl.SSLSocketFactory;

/**
 * Reads the keys a configuration names, and the algorithms they allow. Everything is checked here, when
 * the configuration is applied, so that a problem is reported once and not per token.
 */
final class KeyLoader {

    /** Fetching the JWKS: an authorization server that cannot answer within these is treated as down. */
    static final int CONNECT_TIMEOUT_MS = 2_000;
    static final int READ_TIMEOUT_MS = 3_000;
    /** The largest JWKS document read; real ones are a few KiB. */
    static final int SIZE_LIMIT_BYTES = 256 * 1024;
    /** How long requests wait for a fetch already under way before fetching themselves (Nimbus's default). */
    static final long REFRESH_TIMEOUT_MS = JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT;
    /** Refresh-ahead fetches this long before the cached set expires, so no request waits for it. */
    static final long REFRESH_AHEAD_MS = JWKSourceBuilder.DEFAULT_REFRESH_AHEAD_TIME;

    static final String BASE64_PREFIX = "base64:";

    private KeyLoader() {
    }

    /**
     * The keys of a configuration.
     *
     * @param source where the configuration came from, for messages
     * @param tls the TLS sockets for the JWKS URL; null for the JVM's default trust
     * @param errors told of each problem that keeps the configuration from being used
     * @param warnings told of keys that are skipped or look wrong
     * @return the key selector and a description of each key source, or null when there are errors
     */
    static Loaded load(JwtConfig c, SSLSocketFactory tls, List<String> errors, Consumer<String> warnings) {
        List<JWK> local = new ArrayList<>();
        Set<JWSAlgorithm> allowed = new LinkedHashSet<>();
        List<String> sources = new ArrayList<>();
        int errorsBefore = errors.size();

        if (!c.hmacSecret().isEmpty()) {
            byte[] secret = secret(c.hmacSecret(), errors);
            if (secret != null) {
                local.add(new OctetSequenceKey.Builder(secret).build());
                allowed.addAll(Algorithms.forSecret(secret.length));
                sources.add("hmacSecret (" + secret.length + " bytes)");
            }
        }
        if (!c.publicKeyFile().isBlank()) {
            Path file = Path.of(c.publicKeyFile().trim()).toAbsolutePath();
            try {
                List<JWK> keys = PemKeys.parse(Files.readString(file, StandardCharsets.US_ASCII),
                        w -> warnings.accept("publicKeyFile " + file + ": " + w));
                addPublic(keys, "publicKeyFile " + file, local, allowed, sources, errors);
            } catch (IOException e) {
                errors.add("publicKeyFile " + file + " cannot be read: " + e);
            } catch (IllegalArgumentException e) {
                errors.add("publicKeyFile " + file + " " + e.getMessage());
            }
        }
        if (!c.jwksFile().isBlank()) {
            Path file = Path.of(c.jwksFile().trim()).toAbsolutePath();
            try {
                JWKSet set = JWKSet.parse(Files.readString(file, StandardCharsets.UTF_8));
                List<JWK> keys = publicKeys(set, "jwksFile " + file, warnings);
                if (keys.isEmpty()) {
                    errors.add("jwksFile " + file + " holds no public signing key (RSA, EC P-256/384/521, Ed25519)");
                } else {
                    addPublic(keys, "jwksFile " + file, local, allowed, sources, errors);
                }
            } catch (IOException e) {
                errors.add("jwksFile " + file + " cannot be read: " + e);
            } catch (ParseException e) {
                errors.add("jwksFile " + file + " is not a JWK set: " + e.getMessage());
            }
        }
        JWKSource<SecurityContext> remote = null;
        if (!c.jwksUrl().isBlank()) {
            remote = remote(c, tls, errors);
            if (remote != null) {
                allowed.addAll(Algorithms.PUBLIC);
                sources.add("jwksUrl " + c.jwksUrl().trim() + " (kept " + c.jwksCacheSeconds()
                        + " s, fetched at most twice per " + c.jwksMinRefreshSeconds() + " s)");
            }
        }
        if (sources.isEmpty() && errors.size() == errorsBefore) {
            errors.add("no key is configured: set hmacSecret, publicKeyFile, jwksFile or jwksUrl");
        }
        Set<JWSAlgorithm> accepted = narrow(allowed, TypedConfig.list(c.algorithms()), errors);
        KeySelector selector = new KeySelector(accepted, local, remote);
        if (errors.size() > errorsBefore) {
            close(selector);
            return null;
        }
        return new Loaded(selector, List.copyOf(sources));
    }

    /**
     * @param selector the keys
     * @param sources one line per key source, e.g. {@code jwksFile /etc/quiver/jwks.json (2 keys: a, b)}
     */
    record Loaded(KeySelector selector, List<String> sources) {
    }

    /** The secret's bytes: the UTF-8 text, or the bytes after {@code base64:}. Never put in a message. */
    private static byte[] secret(String value, List<String> errors) {
        byte[] secret;
        if (value.startsWith(BASE64_PREFIX)) {
            String text = value.substring(BASE64_PREFIX.length()).replaceAll("\\s", "");
            try {
                secret = (text.contains("-") || text.contains("_") ? Base64.getUrlDecoder() : Base64.getDecoder())
                        .decode(text);
            } catch (IllegalArgumentException e) {
                errors.add("hmacSecret: the text after base64: is not base64");
                return null;
            }
        } else {
            secret = value.getBytes(StandardCharsets.UTF_8);
        }
        if (secret.length < 32) {
            errors.add("hmacSecret has " + secret.length + " bytes; HMAC needs at least 32 (HS256; 48 for HS384,"
                    + " 64 for HS512): a shorter secret can be guessed offline from any one token");
            return null;
        }
        return secret;
    }

    /** The public signing keys of a JWK set; the others are skipped with a warning. */
    private static List<JWK> publicKeys(JWKSet set, String what, Consumer<String> warnings) {
        List<JWK> keys = new ArrayList<>();
        for (JWK jwk : set.getKeys()) {
            String name = "key " + (jwk.getKeyID() != null ? Text.quote(jwk.getKeyID()) : "without kid");
            if (jwk instanceof OctetSequenceKey) {
                warnings.accept(what + ": " + name + " is a shared secret and is ignored (a secret goes in hmacSecret)");
            } else if (Algorithms.forKey(jwk).isEmpty()) {
                warnings.accept(what + ": " + name + " (" + jwk.getKeyType() + ") is not RSA, EC P-256/384/521 or"
                        + " Ed25519 and is ignored");
            } else {
                if (jwk.isPrivate()) {
                    warnings.accept(what + ": " + name + " holds a private key; only its public part is used"
                            + " (keep private keys off this server)");
                }
                keys.add(jwk.toPublicJWK());
            }
        }
        return keys;
    }

    private static void addPublic(List<JWK> keys, String what, List<JWK> local, Set<JWSAlgorithm> allowed,
            List<String> sources, List<String> errors) {
        for (JWK jwk : keys) {
            if (jwk instanceof RSAKey rsa && rsa.size() < Algorithms.MIN_RSA_BITS) {
                errors.add(what + ": RSA key" + (jwk.getKeyID() != null ? " " + Text.quote(jwk.getKeyID()) : "")
                        + " has " + rsa.size() + " bits; at least " + Algorithms.MIN_RSA_BITS + " are needed");
                return;
            }
        }
        local.addAll(keys);
        keys.forEach(k -> allowed.addAll(Algorithms.forKey(k)));
        sources.add(what + " (" + keys.stream().map(KeyLoader::describe).collect(Collectors.joining(", ")) + ")");
    }

    private static String describe(JWK jwk) {
        String kind = jwk instanceof RSAKey rsa ? "RSA " + rsa.size()
                : jwk instanceof ECKey ec ? "EC " + ec.getCurve() : "Ed25519";
        return jwk.getKeyID() != null ? kind + " kid " + Text.quote(jwk.getKeyID()) : kind;
    }

    /** The cached, rate-limited JWKS of the URL, or null with an error. */
    private static JWKSource<SecurityContext> remote(JwtConfig c, SSLSocketFactory tls, List<String> errors) {
        String text = c.jwksUrl().trim();
        URL url;
        try {
            URI uri = new URI(text);
            if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                // keys fetched in the clear could be swapped on the way: every token would then be forgeable
                errors.add("jwksUrl " + text + " is not an https URL");
                return null;
            }
            url = uri.toURL();
        } catch (Exception e) {
            errors.add("jwksUrl " + text + " is not a URL: " + e.getMessage());
            return null;
        }
        long ttl = c.jwksCacheSeconds() * 1000;
        long minInterval = c.jwksMinRefreshSeconds() * 1000;
        if (ttl <= minInterval) {
            errors.add("jwksCacheSeconds (" + c.jwksCacheSeconds() + ") must be more than jwksMinRefreshSeconds ("
                    + c.jwksMinRefreshSeconds() + ")");
            return null;
        }
        DefaultResourceRetriever retriever =
                new DefaultResourceRetriever(CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS, SIZE_LIMIT_BYTES, true, tls);
        try {
            return JWKSourceBuilder.<SecurityContext>create(url, retriever)
                    .cache(ttl, REFRESH_TIMEOUT_MS)
                    // refresh ahead needs room in the time-to-live for itself and a fetch that waits
                    .refreshAheadCache(ttl > REFRESH_AHEAD_MS + REFRESH_TIMEOUT_MS)
                    .rateLimited(minInterval)
                    .retrying(true)
                    // the keys last fetched stay in use through an outage of the server (10 times the ttl)
                    .outageTolerant(true)
                    .build();
        } catch (IllegalStateException | IllegalArgumentException e) {
            errors.add("jwksUrl " + text + ": " + e.getMessage());
            return null;
        }
    }

    /** The algorithms allowed, narrowed to those named (when any are). */
    private static Set<JWSAlgorithm> narrow(Set<JWSAlgorithm> allowed, List<String> names, List<String> errors) {
        if (names.isEmpty()) {
            return allowed;
        }
        Set<JWSAlgorithm> named = new LinkedHashSet<>();
        for (String name : names) {
            JWSAlgorithm alg = Algorithms.named(name);
            if (alg == null) {
                errors.add("algorithms: " + Text.quote(name) + " is not one of " + Algorithms.names(Algorithms.ALL)
                        + (name.equalsIgnoreCase("none") ? " (unsigned tokens are never accepted)" : ""));
            } else {
                named.add(alg);
            }
        }
        Set<JWSAlgorithm> accepted = new LinkedHashSet<>(allowed);
        accepted.retainAll(named);
        if (accepted.isEmpty() && !allowed.isEmpty() && !named.isEmpty()) {
            errors.add("algorithms " + Algorithms.names(named) + " allow none of the configured keys, which verify "
                    + Algorithms.names(allowed));
        }
        return accepted;
    }

    static void close(KeySelector selector) {
        try {
            selector.close();
        } catch (IOException e) {
            // nothing held but the JWKS fetcher's thread
        }
    }
}
