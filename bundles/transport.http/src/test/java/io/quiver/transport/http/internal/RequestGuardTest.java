package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RequestGuardTest {

    private final RequestGuard loopbackOnly = new RequestGuard(List.of(), List.of());

    @Test
    void loopbackHostsOnAnyPortAreAllowed() {
        assertTrue(loopbackOnly.hostAllowed("localhost:7711"));
        assertTrue(loopbackOnly.hostAllowed("127.0.0.1"));
        assertTrue(loopbackOnly.hostAllowed("[::1]:8080"));
        assertTrue(loopbackOnly.hostAllowed("LOCALHOST:1"));
    }

    @Test
    void otherHostsAreRefusedUnlessConfigured() {
        assertFalse(loopbackOnly.hostAllowed("evil.example.com"));
        assertFalse(loopbackOnly.hostAllowed("localhost.evil.example.com:80"));
        assertFalse(loopbackOnly.hostAllowed(null));
        assertFalse(loopbackOnly.hostAllowed(""));
        RequestGuard configured = new RequestGuard(List.of("mcp.internal"), List.of());
        assertTrue(configured.hostAllowed("mcp.internal:443"));
    }

    @Test
    void originsMustBeOnAllowedHostsOrListed() {
        assertTrue(loopbackOnly.originAllowed(null));
        assertTrue(loopbackOnly.originAllowed("http://localhost:3000"));
        assertTrue(loopbackOnly.originAllowed("https://127.0.0.1"));
        assertFalse(loopbackOnly.originAllowed("http://evil.example.com"));
        assertFalse(loopbackOnly.originAllowed("null"));
        assertFalse(loopbackOnly.originAllowed("file://localhost"));
        RequestGuard listed = new RequestGuard(List.of(), List.of("https://app.example.com/"));
        assertTrue(listed.originAllowed("https://app.example.com"));
        assertFalse(listed.originAllowed("https://other.example.com"));
    }
}
