package io.quiver.tools.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.tools.http.internal.Addresses.Kind;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressesTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            "8.8.8.8, PUBLIC", "1.1.1.1, PUBLIC", "93.184.215.14, PUBLIC", "172.32.0.1, PUBLIC", "100.128.0.1, PUBLIC",
            "169.255.0.1, PUBLIC", "11.0.0.1, PUBLIC", "192.169.0.1, PUBLIC", "223.255.255.254, PUBLIC",
            "127.0.0.1, LOOPBACK", "127.255.255.254, LOOPBACK", "127.0.0.2, LOOPBACK",
            "10.0.0.1, PRIVATE", "10.255.255.255, PRIVATE", "172.16.0.1, PRIVATE", "172.31.255.255, PRIVATE",
            "192.168.1.1, PRIVATE", "100.64.0.1, PRIVATE", "100.127.255.255, PRIVATE",
            "169.254.169.254, LINK_LOCAL", "169.254.0.1, LINK_LOCAL",
            "224.0.0.1, MULTICAST", "239.255.255.250, MULTICAST", "255.255.255.255, MULTICAST",
            "0.0.0.0, UNSPECIFIED", "0.1.2.3, UNSPECIFIED",
            "192.0.2.1, RESERVED", "198.51.100.7, RESERVED", "203.0.113.9, RESERVED", "198.18.0.1, RESERVED",
            "198.19.255.255, RESERVED", "240.0.0.1, RESERVED", "192.0.0.8, RESERVED", "192.88.99.1, RESERVED",
            // IPv6
            "2606:4700:4700::1111, PUBLIC", "2001:4860:4860::8888, PUBLIC", "2a00:1450:4001:80e::200e, PUBLIC",
            "::1, LOOPBACK", "::, UNSPECIFIED",
            "fc00::1, UNIQUE_LOCAL", "fd12:3456:789a::1, UNIQUE_LOCAL",
            "fe80::1, LINK_LOCAL", "febf::1, LINK_LOCAL", "fec0::1, PRIVATE",
            "ff02::1, MULTICAST", "ff05::1:3, MULTICAST",
            "2001:db8::1, RESERVED", "2001::1, RESERVED", "2001:0:4136:e378:8000:63bf:3fff:fdd2, RESERVED",
            "100::1, RESERVED", "3fff::1, RESERVED", "4000::1, RESERVED", "::127.0.0.1, RESERVED",
            // addresses that carry an IPv4 address are what that address is
            "::ffff:127.0.0.1, LOOPBACK", "::ffff:10.1.2.3, PRIVATE", "::ffff:8.8.8.8, PUBLIC",
            "64:ff9b::7f00:1, LOOPBACK", "64:ff9b::a9fe:a9fe, LINK_LOCAL", "64:ff9b::808:808, PUBLIC",
            "64:ff9b:1::1, PRIVATE",
            "2002:7f00:1::1, LOOPBACK", "2002:c0a8:101::1, PRIVATE", "2002:808:808::1, PUBLIC"})
    void classifies(String address, Kind kind) {
        InetAddress parsed = Addresses.literal(address);
        assertNotNull(parsed, address);
        assertEquals(kind, Addresses.classify(parsed), address);
    }

    @Test
    void multicastAndUnspecifiedAreNeverAllowed() {
        assertTrue(Kind.MULTICAST.never());
        assertTrue(Kind.UNSPECIFIED.never());
        assertFalse(Kind.LOOPBACK.never());
        assertFalse(Kind.PRIVATE.never());
    }

    @Test
    void literalsAreParsedWithoutALookup() {
        assertEquals("192.0.2.1", Addresses.text(Addresses.literal("192.0.2.1")));
        assertEquals("::1", Addresses.text(Addresses.literal("[::1]")));
        assertEquals("2001:db8::7", Addresses.text(Addresses.literal("2001:DB8:0:0:0:0:0:7")));
        assertEquals("fe80::1", Addresses.text(Addresses.literal("fe80::1")));
        // names and malformed literals are no literals: never handed to the resolver
        assertNull(Addresses.literal("localhost"));
        assertNull(Addresses.literal("example.com"));
        assertNull(Addresses.literal("256.1.1.1"));
        assertNull(Addresses.literal("1.2.3"));
        assertNull(Addresses.literal("::1::2"));
        assertNull(Addresses.literal("fe80::1%eth0"));
    }

    @Test
    void rangesHoldTheirAddressesOnly() {
        AddressRange loopbackOne = AddressRange.parse("127.0.0.2/32");
        assertTrue(loopbackOne.contains(Addresses.literal("127.0.0.2")));
        assertFalse(loopbackOne.contains(Addresses.literal("127.0.0.1")));
        AddressRange ten = AddressRange.parse("10.20.0.0/16");
        assertTrue(ten.contains(Addresses.literal("10.20.255.1")));
        assertFalse(ten.contains(Addresses.literal("10.21.0.1")));
        AddressRange single = AddressRange.parse("192.168.1.7");
        assertTrue(single.contains(Addresses.literal("192.168.1.7")));
        assertFalse(single.contains(Addresses.literal("192.168.1.8")));
        AddressRange ula = AddressRange.parse("fd12:3456::/32");
        assertTrue(ula.contains(Addresses.literal("fd12:3456:ffff::1")));
        assertFalse(ula.contains(Addresses.literal("fd12:3457::1")));
        assertFalse(ula.contains(Addresses.literal("10.0.0.1")), "an IPv6 range holds no IPv4 address");
        assertTrue(AddressRange.parse("[::1]").contains(Addresses.literal("::1")));
        assertTrue(AddressRange.parse("0.0.0.0/0").contains(Addresses.literal("10.9.8.7")));
        assertFalse(AddressRange.parse("10.0.0.0/8").contains(Addresses.literal("::ffff:11.0.0.1")));
        assertTrue(AddressRange.parse("10.0.0.0/8").contains(Addresses.literal("::ffff:10.0.0.1")),
                "an IPv4-mapped address is its IPv4 address");
        assertNull(AddressRange.parse("10.0.0.0/33"));
        assertNull(AddressRange.parse("10.0.0.0/"));
        assertNull(AddressRange.parse("intranet.example.com"));
        assertNull(AddressRange.parse("10.0.0.0/8x"));
    }
}
