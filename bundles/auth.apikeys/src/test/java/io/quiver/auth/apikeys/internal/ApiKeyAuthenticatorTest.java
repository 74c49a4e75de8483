package io.quiver.auth.apikeys.internal;

import static io.quiver.auth.apikeys.internal.Keys.config;
import static io.quiver.auth.apikeys.internal.Keys.entry;
import static io.quiver.auth.apikeys.internal.Keys.newKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApiKeyAuthenticatorTest {

    private final ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(Keys.CLOCK);
    private final String ciKey = newKey();
    private final String opsKey = newKey();
    private final ApiKey ci = entry(config("ci-bot", ciKey));
    private final ApiKey ops = entry(config("ops", opsKey));

    ApiKeyAuthenticatorTest() {
        authenticator.addKey(ci);
        authenticator.addKey(ops);
    }

    private Authentication refused(String token) {
        Authentication a = authenticator.authenticate(token);
        assertEquals(Authentication.Status.REFUSED, a.status());
        // (a bare "qvk_" is in the reason's description of the form)
        assertFalse(token.length() > KeyHash.PREFIX.length() && a.reason().contains(token),
                "a reason never repeats the token");
        return a;
    }

    @Test
    void aConfiguredKeyIsAccepted() {
        Authentication a = authenticator.authenticate(ciKey);
        assertTrue(a.accepted());
        assertEquals(new CallerIdentity("ci-bot", "acme", Set.of("reader", "deployer"), true), a.caller());
        assertEquals(Set.of("mcp:tools"), a.scopes());
        assertEquals("ops", authenticator.authenticate(opsKey).caller().subject());
    }

    @Test
    void aCheckWaitsOnNothing() {
        assertTrue(authenticator.waitsOnNothing(), "a hash and a look-up in memory");
    }

    @Test
    void anUnknownKeyIsRefused() {
        assertEquals("unknown API key (never configured, or revoked)", refused(newKey()).reason());
    }

    @Test
    void anExpiredKeyIsRefusedByName() {
        ApiKeyAuthenticator later = new ApiKeyAuthenticator(Clock.fixed(Instant.parse("2027-03-01T00:00:00Z"),
                ZoneOffset.UTC));
        later.addKey(ci);
        Authentication a = later.authenticate(ciKey);
        assertFalse(a.accepted());
        assertEquals("API key 'ci-bot' (subject ci-bot) expired at 2027-03-01T00:00:00Z", a.reason());
    }

    @Test
    void aRevokedKeyIsRefusedAtItsNextRequest() {
        assertTrue(authenticator.authenticate(ciKey).accepted());
        authenticator.removeKey(ci);
        assertEquals("unknown API key (never configured, or revoked)", refused(ciKey).reason());
        assertTrue(authenticator.authenticate(opsKey).accepted(), "the other key stays");
    }

    @Test
    void aMalformedKeyIsRefused() {
        String a43 = "A".repeat(43);
        for (String token : List.of("qvk_", "qvk_short", "qvk_" + a43 + "A", "qvk_" + a43.substring(1),
                "qvk_" + a43.substring(1) + "+", "qvk_" + a43.substring(1) + "/", "qvk_" + a43 + "=",
                "qvk_" + a43.substring(1) + " ", "qvk_" + a43.substring(1) + "\u00e9", "qvk_" + a43 + "\n")) {
            assertTrue(refused(token).reason().startsWith("malformed API key"), token);
        }
    }

    @Test
    void aWellFormedKeyTakesItsExactLength() {
        assertTrue(KeyHash.isWellFormed("qvk_" + "A".repeat(41) + "-_"));
        assertTrue(KeyHash.isWellFormed(newKey()));
    }

    @Test
    void everyBase64urlCharacterAndNoOtherMakesAKey() {
        String base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for (char c = 0; c < 0x180; c++) {
            String key = "qvk_" + "A".repeat(21) + c + "A".repeat(21);
            assertEquals(base64url.indexOf(c) >= 0, KeyHash.isWellFormed(key), "character " + (int) c);
        }
        assertFalse(KeyHash.isWellFormed("qvx_" + "A".repeat(43)), "the prefix counts");
        assertFalse(KeyHash.isWellFormed("QVK_" + "A".repeat(43)), "in lower case");
        assertFalse(KeyHash.isWellFormed("A".repeat(47)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl",
        "QVK_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "Qvk_x", "qvk", "ghp_0123456789", "x"})
    void otherTokensAreNotMine(String token) {
        assertEquals(Authentication.Status.NOT_MINE, authenticator.authenticate(token).status());
    }

    @Test
    void badConfigurationsAcceptNothing() {
        ApiKeyAuthenticator onlyBad = new ApiKeyAuthenticator(Keys.CLOCK);
        String key = newKey();
        Map<String, Object> noSubject = config("a", key);
        noSubject.remove("subject");
        Map<String, Object> badExpiry = config("b", key);
        badExpiry.put("expires", "2027-13-01");
        Map<String, Object> badHash = config("c", key);
        badHash.put("hash", "sha256:" + "0".repeat(64));
        Map<String, Object> noHash = config("d", key);
        noHash.remove("hash");
        for (Map<String, Object> p : List.of(noSubject, badExpiry, badHash, noHash)) {
            ApiKeyAuthenticator one = new ApiKeyAuthenticator(Keys.CLOCK);
            one.addKey(entry(p));
            onlyBad.addKey(entry(p));
            assertFalse(one.authenticate(key).accepted(), p::toString);
        }
        assertFalse(onlyBad.authenticate(key).accepted());
        assertFalse(onlyBad.authenticate(newKey()).accepted());
    }

    @Test
    void aKeyConfiguredTwiceIsRefused() {
        authenticator.addKey(entry(config("ci-bot-copy", ciKey)));
        Authentication a = refused(ciKey);
        assertTrue(a.reason().startsWith("API key configured more than once ("), a.reason());
        assertTrue(a.reason().contains("ci-bot-copy"), a.reason());
    }

    @Test
    void theStoredHashIsTheSha256OfTheKey() {
        // what quiver apikey create prints; the SHA-256 test vector of "abc"
        assertEquals("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                KeyHash.format(KeyHash.digest("abc")));
        assertTrue(Keys.hash(ciKey).matches("sha256:[0-9a-f]{64}"));
    }
}
