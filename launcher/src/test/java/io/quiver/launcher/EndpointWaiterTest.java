package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.felix.framework.Felix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndpointWaiterTest {

    /**
     * With --stdio a client can be done, and close stdin (which stops the framework), before the HTTP
     * endpoint of the same server answers: the wait ends then, rather than at its timeout as a failed start.
     */
    @Test
    void aFrameworkThatStopsEndsTheWaitWithoutAnEndpoint(@TempDir Path storage) throws Exception {
        Felix felix = new Felix(Map.of("org.osgi.framework.storage", storage.toString()));
        felix.start();
        Thread stopper = new Thread(() -> {
            try {
                Thread.sleep(300);
                felix.stop();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        stopper.start();
        // nothing will ever register the servlet: without the check this waits out the whole minute
        URI url = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> new EndpointWaiter(felix.getBundleContext(), "127.0.0.1").await(60_000));
        assertNull(url);
        stopper.join();
        felix.waitForStop(10_000);
    }

    @Test
    void endpointPropertyShapes() {
        assertEquals(List.of("http://a/"), EndpointWaiter.endpoints("http://a/"));
        assertEquals(List.of("http://a/", "http://b/"), EndpointWaiter.endpoints(new String[] {"http://a/", "http://b/"}));
        assertEquals(List.of("http://a/"), EndpointWaiter.endpoints(List.of("http://a/")));
        assertEquals(List.of(), EndpointWaiter.endpoints(null));
    }

    @Test
    void theHostIsTheBindAddressAndThePortTheRuntimes() throws Exception {
        assertEquals(URI.create("http://127.0.0.1:7711/"),
                EndpointWaiter.chooseEndpoint(List.of("http://127.0.0.1:7711/"), "127.0.0.1"));
        assertEquals(URI.create("http://localhost:4000/"),
                EndpointWaiter.chooseEndpoint(List.of("http://localhost:4000/"), "localhost"));
        // what Felix HTTP publishes for a wildcard bind: every interface; the URL says what is bound
        assertEquals(URI.create("http://0.0.0.0:37277/"), EndpointWaiter.chooseEndpoint(
                List.of("http://[fd00:0:0:0:0:0:0:2%eth0]:37277/", "http://192.0.2.2:37277/"), "0.0.0.0"));
        assertEquals(URI.create("http://[::]:8080/"), EndpointWaiter.chooseEndpoint(List.of("http://[::]:8080/"), "::"));
        // and for an IPv6 literal: no brackets
        assertEquals(URI.create("http://[::1]:35489/"), EndpointWaiter.chooseEndpoint(List.of("http://::1:35489/"), "::1"));
        assertEquals(URI.create("https://h:8443/ctx/"), EndpointWaiter.chooseEndpoint(List.of("no port", "https://x:8443/ctx/"), "h"));
        assertThrows(TimeoutException.class, () -> EndpointWaiter.chooseEndpoint(List.of(), "127.0.0.1"));
    }

    @Test
    void joinPutsOneSlashBetween() {
        assertEquals(URI.create("http://h:1/mcp"), EndpointWaiter.join(URI.create("http://h:1/"), "/mcp"));
        assertEquals(URI.create("http://h:1/ctx/mcp"), EndpointWaiter.join(URI.create("http://h:1/ctx"), "mcp"));
    }

    @Test
    void slf4jIsExportedWithTheBuildsVersion() {
        String v = FrameworkProperties.version("slf4j.version");
        assertEquals("org.slf4j;version=\"" + v + "\",org.slf4j.spi;version=\"" + v + "\",org.slf4j.event;version=\""
                + v + "\",org.slf4j.helpers;version=\"" + v + "\"", FrameworkProperties.slf4jExports(v));
    }
}
