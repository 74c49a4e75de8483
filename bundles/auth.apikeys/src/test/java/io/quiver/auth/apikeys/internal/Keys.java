package io.quiver.auth.apikeys.internal;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/** Keys and key configurations for tests, made the way {@code quiver apikey create} makes them. */
final class Keys {

    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();

    private Keys() {
    }

    static String newKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return KeyHash.PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String hash(String key) {
        return KeyHash.format(KeyHash.digest(key));
    }

    /** The properties FileInstall gives for {@code etc/io.quiver.auth.apikey-<name>.cfg} holding a good entry for the key. */
    static Map<String, Object> config(String name, String key) {
        Map<String, Object> p = new HashMap<>();
        p.put("felix.fileinstall.filename", "file:/srv/quiver/etc/io.quiver.auth.apikey-" + name + ".cfg");
        p.put("service.pid", "io.quiver.auth.apikey~" + name);
        p.put("service.factoryPid", "io.quiver.auth.apikey");
        p.put("hash", hash(key));
        p.put("subject", name);
        p.put("tenant", "acme");
        p.put("roles", "reader, deployer");
        p.put("scopes", "mcp:tools");
        p.put("expires", "2027-03-01");
        return p;
    }

    static ApiKey entry(Map<String, Object> properties) {
        return new ApiKey(properties, CLOCK);
    }
}
