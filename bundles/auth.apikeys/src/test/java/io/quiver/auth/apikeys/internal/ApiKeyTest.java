package io.quiver.auth.apikeys.internal;

import static io.quiver.auth.apikeys.internal.Keys.NOW;
import static io.quiver.auth.apikeys.internal.Keys.config;
import static io.quiver.auth.apikeys.internal.Keys.entry;
import static io.quiver.auth.apikeys.internal.Keys.newKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import io.quiver.api.operator.Problem;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApiKeyTest {

    private final String key = newKey();

    private static Authentication check(ApiKey entry, String key, Instant at) {
        return entry.check(KeyHash.digest(key), at).orElseThrow(() -> new AssertionError("the key is not the entry's"));
    }

    private static String problems(ApiKey entry) {
        return entry.problems().stream().map(Problem::toString).reduce("", (a, b) -> a + b + "\n");
    }

    @Test
    void aGoodEntryAcceptsItsKeyAsItsSubject() {
        ApiKey entry = entry(config("ci-bot", key));
        Authentication a = check(entry, key, NOW);
        assertTrue(a.accepted());
        assertEquals(new CallerIdentity("ci-bot", "acme", Set.of("reader", "deployer"), true), a.caller());
        assertEquals(Set.of("mcp:tools"), a.scopes());
        assertEquals(List.of(), entry.problems());
        assertEquals("ci-bot", entry.name());
    }

    @Test
    void otherKeysAreNotTheEntrys() {
        assertTrue(entry(config("ci-bot", key)).check(KeyHash.digest(newKey()), NOW).isEmpty());
    }

    @Test
    void tenantRolesAndScopesHaveDefaults() {
        Map<String, Object> p = config("ci-bot", key);
        p.remove("tenant");
        p.put("roles", "");
        p.remove("scopes");
        Authentication a = check(entry(p), key, NOW);
        assertEquals(new CallerIdentity("ci-bot", "default", Set.of(), true), a.caller());
        assertEquals(Set.of(), a.scopes());
    }

    @Test
    void typedListsFromConfigFilesAreTaken() {
        Map<String, Object> p = config("ci-bot", key);
        p.put("roles", new String[] {"a", "b,c"});
        p.put("scopes", List.of("x", " y "));
        Authentication a = check(entry(p), key, NOW);
        assertEquals(Set.of("a", "b", "c"), a.caller().roles());
        assertEquals(Set.of("x", "y"), a.scopes());
    }

    @Test
    void aDateExpiresAtTheStartOfThatDayUtc() {
        ApiKey entry = entry(config("ci-bot", key));
        assertTrue(check(entry, key, Instant.parse("2027-02-28T23:59:59Z")).accepted());
        Authentication expired = check(entry, key, Instant.parse("2027-03-01T00:00:00Z"));
        assertFalse(expired.accepted());
        assertEquals("API key 'ci-bot' (subject ci-bot) expired at 2027-03-01T00:00:00Z", expired.reason());
    }

    @Test
    void expiryFormats() {
        assertEquals(Instant.parse("2027-03-01T00:00:00Z"), ApiKey.expiry("2027-03-01"));
        assertEquals(Instant.parse("2027-03-01T10:15:30Z"), ApiKey.expiry(" 2027-03-01T10:15:30Z "));
        assertEquals(Instant.parse("2027-03-01T08:15:30Z"), ApiKey.expiry("2027-03-01T10:15:30+02:00"));
        for (String bad : List.of("", "tomorrow", "2027-02-30", "2027-03-01T10:15:30", "1772323200")) {
            assertThrows(DateTimeException.class, () -> ApiKey.expiry(bad), bad);
        }
    }

    @Test
    void anExpiredKeyIsAProblemForTheOperator() {
        Map<String, Object> p = config("old", key);
        p.put("expires", "2026-12-01T11:59:59Z");
        ApiKey entry = entry(p);
        assertEquals(1, entry.problems().size());
        assertTrue(problems(entry).contains("/srv/quiver/etc/io.quiver.auth.apikey-old.cfg: API key 'old'"
                + " (subject old) expired at 2026-12-01T11:59:59Z"), problems(entry));
        assertFalse(check(entry, key, NOW).accepted());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "sha256:", "sha256:abc", "md5:0123456789abcdef0123456789abcdef",
        "SHA256:0000000000000000000000000000000000000000000000000000000000000000",
        "sha256:000000000000000000000000000000000000000000000000000000000000000g",
        "0000000000000000000000000000000000000000000000000000000000000000"})
    void aBadHashAcceptsNothing(String hash) {
        Map<String, Object> p = config("ci-bot", key);
        p.put("hash", hash);
        ApiKey entry = entry(p);
        assertTrue(entry.check(KeyHash.digest(key), NOW).isEmpty());
        assertEquals(1, entry.problems().size(), problems(entry));
        assertTrue(problems(entry).contains("hash is not sha256: followed by 64 lowercase hex digits; the key is"
                + " refused until this is fixed"), problems(entry));
    }

    @Test
    void anUppercaseHashIsNotTaken() {
        Map<String, Object> p = config("ci-bot", key);
        p.put("hash", Keys.hash(key).toUpperCase().replace("SHA256:", "sha256:"));
        assertTrue(entry(p).check(KeyHash.digest(key), NOW).isEmpty());
    }

    @Test
    void aKeyWrittenAsItsOwnHashIsNeverRepeated() {
        Map<String, Object> p = config("ci-bot", key);
        p.put("hash", key);
        ApiKey entry = entry(p);
        assertTrue(entry.check(KeyHash.digest(key), NOW).isEmpty());
        assertTrue(problems(entry).contains("hash holds an API key itself"), problems(entry));
        assertFalse(problems(entry).contains(key.substring(4)), "the key must not be repeated");

        p.put("hash", new String[] {key, "x"});
        assertFalse(problems(entry(p)).contains(key.substring(4)), "the key must not be repeated");
    }

    @Test
    void missingRequiredSettingsAcceptNothing() {
        for (String setting : List.of("hash", "subject", "expires")) {
            Map<String, Object> p = config("ci-bot", key);
            p.remove(setting);
            ApiKey entry = entry(p);
            assertTrue(problems(entry).contains(setting + " is required and missing"), problems(entry));
            assertEquals(1, entry.problems().size(), "said once: " + problems(entry));
            entry.check(KeyHash.digest(key), NOW).ifPresent(a -> assertFalse(a.accepted(), setting));
        }
    }

    @Test
    void eachBadSettingIsReportedBesidesAMissingOne() {
        // the operator fixes the file once: a missing hash does not hide that the subject is empty too
        Map<String, Object> p = config("ci-bot", key);
        p.remove("hash");
        p.put("subject", "  ");
        p.put("expires", "next year");
        ApiKey entry = entry(p);
        assertEquals(3, entry.problems().size(), problems(entry));
        assertTrue(problems(entry).contains("hash is required and missing"), problems(entry));
        assertTrue(problems(entry).contains("subject is empty"), problems(entry));
        assertTrue(problems(entry).contains("expires = next year is not an ISO-8601 instant"), problems(entry));
    }

    @Test
    void aMatchingKeyOfABadEntryIsRefusedWithTheReason() {
        Map<String, Object> p = config("ci-bot", key);
        p.put("subject", "  ");
        p.put("expires", "next year");
        ApiKey entry = entry(p);
        assertEquals(2, entry.problems().size(), problems(entry));
        assertTrue(problems(entry).contains("subject is empty"), problems(entry));
        assertTrue(problems(entry).contains("expires = next year is not an ISO-8601 instant"), problems(entry));
        Authentication a = check(entry, key, NOW);
        assertFalse(a.accepted());
        assertEquals("API key 'ci-bot' is not usable: its configuration has problems"
                + " (/srv/quiver/etc/io.quiver.auth.apikey-ci-bot.cfg)", a.reason());
    }

    @Test
    void anEditAppliesInPlaceAndABadEditDoesNotKeepTheOldValues() {
        ApiKey entry = entry(config("ci-bot", key));
        String next = newKey();
        entry.modified(config("ci-bot", next));
        assertTrue(entry.check(KeyHash.digest(key), NOW).isEmpty(), "the old key is gone");
        assertTrue(check(entry, next, NOW).accepted());

        Map<String, Object> bad = config("ci-bot", next);
        bad.put("expires", "soon");
        entry.modified(bad);
        assertFalse(check(entry, next, NOW).accepted());
        assertEquals(1, entry.problems().size());
    }

    @Test
    void theNameComesFromTheFileOrThePid() {
        assertEquals("ci-bot", ApiKey.name(Map.of("felix.fileinstall.filename",
                "file:/etc/quiver/io.quiver.auth.apikey-ci-bot.cfg")));
        assertEquals("ci-bot", ApiKey.name(Map.of("felix.fileinstall.filename",
                "file:/C:/quiver/etc/io.quiver.auth.apikey-ci-bot.config")));
        assertEquals("deploy", ApiKey.name(Map.of("service.pid", "io.quiver.auth.apikey~deploy")));
        assertEquals("io.quiver.auth.apikey.1234", ApiKey.name(Map.of("service.pid", "io.quiver.auth.apikey.1234")));
        assertEquals("unnamed", ApiKey.name(Map.of()));
    }

    @Test
    void withoutAFileProblemsNameThePid() {
        Map<String, Object> p = config("ci-bot", key);
        p.remove("felix.fileinstall.filename");
        p.remove("subject");
        ApiKey entry = entry(p);
        assertTrue(problems(entry).startsWith("configuration io.quiver.auth.apikey~ci-bot: subject is required"),
                problems(entry));
        assertEquals("ci-bot", entry.name());
    }
}
