package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Which tenant and project a request URL names, and which templates an operator may set. */
class EndpointsTest {

    private final Endpoints endpoints = new Endpoints("/mcp", "/t/{tenant}/mcp");

    @Test
    void theDefaultPathIsTheDefaultTenantsAndTheTemplateNamesTheOthers() {
        assertEquals("default", endpoints.tenantOf("/mcp"));
        assertEquals("acme", endpoints.tenantOf("/t/acme/mcp"));
        assertEquals("acme-2.eu_west", endpoints.tenantOf("/t/acme-2.eu_west/mcp"));
        assertArrayEquals(new String[] {"/mcp", "/t/*"}, endpoints.patterns());
    }

    @Test
    void pathsUnderThePrefixThatAreNoEndpointAreNone() {
        assertNull(endpoints.tenantOf("/t/acme"));
        assertNull(endpoints.tenantOf("/t/acme/mcp/extra"));
        assertNull(endpoints.tenantOf("/t//mcp"));
        assertNull(endpoints.tenantOf("/t/../mcp"), "no climbing");
        assertNull(endpoints.tenantOf("/t/./mcp"));
        assertNull(endpoints.tenantOf("/t/a/b/mcp"), "a tenant is one segment");
        assertNull(endpoints.tenantOf("/t/acme corp/mcp"));
        assertNull(endpoints.tenantOf("/t/" + "a".repeat(65) + "/mcp"));
        assertNull(endpoints.tenantOf("/other"));
    }

    @Test
    void anOperatorsTemplateAndNoneAtAll() {
        Endpoints brain = new Endpoints("/mcp", "/brain/{tenant}/mcp");
        assertEquals("acme", brain.tenantOf("/brain/acme/mcp"));
        assertArrayEquals(new String[] {"/mcp", "/brain/*"}, brain.patterns());
        Endpoints trailing = new Endpoints("/mcp", "/tenants/{tenant}");
        assertEquals("acme", trailing.tenantOf("/tenants/acme"));
        Endpoints none = new Endpoints("/mcp", "");
        assertArrayEquals(new String[] {"/mcp"}, none.patterns());
        assertNull(none.tenantOf("/t/acme/mcp"));
    }

    @Test
    void templatesThatAreNotOneSegmentAfterAFixedOneAreRefused() {
        for (String bad : new String[] {"/t/mcp", "/{tenant}/mcp", "/t/x{tenant}/mcp", "/t/{tenant}x/mcp",
                "/t/{tenant}/{tenant}", "/t/*/{tenant}", "/t/{tenant}/{project}"}) {
            assertThrows(IllegalArgumentException.class, () -> new Endpoints("/mcp", bad), bad);
        }
    }

    @Test
    void theProjectComesFromTheQueryAloneAndMustBeAName() throws Exception {
        assertNull(Endpoints.projectOf(null));
        assertNull(Endpoints.projectOf("other=1"));
        assertEquals("showcase", Endpoints.projectOf("projectId=showcase"));
        assertEquals("showcase", Endpoints.projectOf("a=1&projectId=show%63ase&b"));
        assertEquals("showcase", Endpoints.projectOf("projectId=showcase&projectId=showcase"));
        for (String bad : new String[] {"projectId=", "projectId=..", "projectId=a%2Fb", "projectId=a&projectId=b",
                "projectId=%zz", "projectId=" + "p".repeat(65)}) {
            assertThrows(Endpoints.BadProject.class, () -> Endpoints.projectOf(bad), bad);
        }
    }
}
