package io.quiver.tools.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.lib.config.TypedConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyTest {

    static Policy policy(Map<String, ?> settings) {
        return Policy.of(TypedConfig.of(FetchConfig.class, settings));
    }

    @Test
    void nothingIsAllowedByDefault() {
        Policy p = Policy.of(TypedConfig.defaults(FetchConfig.class));
        assertFalse(p.enabled());
        assertFalse(p.allowsHost("example.com", 443));
        assertFalse(p.allowPrivateAddresses());
        assertEquals(5L << 20, p.maxBytes());
        assertEquals(30_000, p.timeoutMs());
        assertEquals(5, p.maxRedirects());
        assertFalse(p.truncate());
    }

    @Test
    void exactNamesMatchThemselvesOnlyWithoutCaseOrTrailingDot() {
        Policy p = policy(Map.of("allowedHosts", "docs.example.com"));
        assertTrue(p.enabled());
        assertTrue(p.allowsHost("docs.example.com", 443));
        assertTrue(p.allowsHost("DOCS.Example.COM", 80));
        assertTrue(p.allowsHost("docs.example.com.", 443));
        assertFalse(p.allowsHost("example.com", 443));
        assertFalse(p.allowsHost("www.docs.example.com", 443));
        assertFalse(p.allowsHost("docs.example.com.evil.test", 443));
        assertFalse(p.allowsHost("xdocs.example.com", 443));
    }

    @Test
    void aGlobMatchesSubdomainsButNotTheDomainItself() {
        Policy p = policy(Map.of("allowedHosts", "*.example.com"));
        assertTrue(p.allowsHost("docs.example.com", 443));
        assertTrue(p.allowsHost("a.b.example.com", 443));
        assertFalse(p.allowsHost("example.com", 443));
        assertFalse(p.allowsHost("example.com.evil.test", 443));
        assertFalse(p.allowsHost("evilexample.com", 443));
        assertFalse(p.allowsHost("example.org", 443));
    }

    @Test
    void aStarAloneAllowsAnyHostAndTheListTakesCommas() {
        Policy p = policy(Map.of("allowedHosts", "*"));
        assertTrue(p.allowsHost("anything.test", 8080));
        assertTrue(p.allowsHost("[2001:db8::1]", 443));
        Policy two = policy(Map.of("allowedHosts", "a.example.com, b.example.com"));
        assertTrue(two.allowsHost("a.example.com", 443));
        assertTrue(two.allowsHost("b.example.com", 443));
        assertFalse(two.allowsHost("c.example.com", 443));
        Policy array = policy(Map.of("allowedHosts", new String[] {"a.example.com", "api-*.example.org"}));
        assertTrue(array.allowsHost("api-v2.example.org", 443));
        assertFalse(array.allowsHost("www.example.org", 443));
    }

    @Test
    void aPortLimitsTheEntryToThatPort() {
        Policy p = policy(Map.of("allowedHosts", "example.com:8443, 127.0.0.2:9000, [::1]:9001"));
        assertTrue(p.allowsHost("example.com", 8443));
        assertFalse(p.allowsHost("example.com", 443));
        assertTrue(p.allowsHost("127.0.0.2", 9000));
        assertFalse(p.allowsHost("127.0.0.2", 9001));
        assertTrue(p.allowsHost("[::1]", 9001));
        assertTrue(p.allowsHost("[0:0:0:0:0:0:0:1]", 9001), "IPv6 addresses compare as addresses");
        assertFalse(p.allowsHost("[::1]", 9000));
    }

    @Test
    void addressEntriesMatchTheAddressNotANameForIt() {
        Policy p = policy(Map.of("allowedHosts", "127.0.0.2"));
        assertTrue(p.allowsHost("127.0.0.2", 80));
        assertFalse(p.allowsHost("localhost", 80));
        assertFalse(p.allowsHost("127.0.0.1", 80));
        assertFalse(p.allowsHost("127.2", 80), "another spelling of an address is not the entry");
    }

    @Test
    void entriesThatAreNoHostAreLeftOutAndReported() {
        Policy p = policy(Map.of("allowedHosts", "https://example.com/, example.org, a b, host:99999",
                "allowedAddresses", "10.0.0.0/8, intranet, 10.0.0.0/40", "userAgent", "bad\nagent"));
        assertTrue(p.allowsHost("example.org", 443));
        assertEquals(1, p.hosts().size());
        assertEquals(1, p.addresses().size());
        List<String> problems = p.problems();
        assertEquals(6, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("'https://example.com/'"), problems.toString());
        assertTrue(problems.toString().contains("allowedAddresses entry 'intranet'"), problems.toString());
        assertTrue(problems.toString().contains("userAgent"), problems.toString());
        assertEquals(Policy.DEFAULT_USER_AGENT, p.userAgent());
    }

    @Test
    void privateAddressesAreRefusedUnlessAllowedByRangeOrByTheSwitch() {
        Policy none = policy(Map.of("allowedHosts", "*"));
        assertNull(none.refusal(Addresses.literal("93.184.215.14")));
        assertTrue(none.refusal(Addresses.literal("127.0.0.1")).contains("127.0.0.1 is a loopback address"));
        assertTrue(none.refusal(Addresses.literal("10.1.2.3")).contains("a private address"));
        assertTrue(none.refusal(Addresses.literal("169.254.169.254")).contains("link-local"));
        assertTrue(none.refusal(Addresses.literal("fd00::1")).contains("unique-local"));
        assertTrue(none.refusal(Addresses.literal("::ffff:192.168.0.1")).contains("192.168.0.1 is a private"));

        Policy range = policy(Map.of("allowedHosts", "*", "allowedAddresses", "127.0.0.2/32, 10.20.0.0/16"));
        assertNull(range.refusal(Addresses.literal("127.0.0.2")));
        assertNull(range.refusal(Addresses.literal("10.20.3.4")));
        assertTrue(range.refusal(Addresses.literal("127.0.0.1")) != null, "the rest of loopback stays closed");
        assertTrue(range.refusal(Addresses.literal("10.21.0.1")) != null, "the rest of 10/8 stays closed");
        assertTrue(range.refusal(Addresses.literal("::1")) != null);

        Policy all = policy(Map.of("allowedHosts", "*", "allowPrivateAddresses", "true"));
        assertNull(all.refusal(Addresses.literal("127.0.0.1")));
        assertNull(all.refusal(Addresses.literal("10.1.2.3")));
        assertNull(all.refusal(Addresses.literal("fe80::1")));
        assertTrue(all.refusal(Addresses.literal("0.0.0.0")).contains("never fetched"));
        assertTrue(all.refusal(Addresses.literal("224.0.0.1")).contains("never fetched"));
        Policy wide = policy(Map.of("allowedHosts", "*", "allowedAddresses", "0.0.0.0/0"));
        assertTrue(wide.refusal(Addresses.literal("0.0.0.0")).contains("never fetched"));
    }
}
