package io.quiver.transport.http.internal;

import static io.quiver.transport.http.internal.ScriptedEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.transport.Receipt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stateless (2026-07-28) request whose client left is cancelled, also when what finds the client gone is a
 * keep-alive's write, on a connector without the selector lane's close watcher (HTTPS, {@code selectorLane = false}).
 * Served by the servlet in a real Jetty, over loopback.
 */
class StatelessKeepAliveTest {

    private final LiveEndpoint endpoint = new LiveEndpoint();

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
    }

    /**
     * A stateless request whose client closed its stream is cancelled once a keep-alive finds the client gone, as
     * {@link McpServlet#keepAlive} promises. The keep-alive's write fails on Jetty's thread, which ends the response:
     * the request's {@code onComplete} used to drop it from the streams keepAlive looks at without cancelling it, so
     * a quiet tool ran on and a listen stayed registered after its client left (found by a mutation review; this
     * test failed in 4 runs of 5 before the fix, passing only when a keep-alive saw the failure before the completion).
     */
    @Test
    void aStatelessRequestWhoseClientLeftIsCancelledByTheKeepAlive() throws Exception {
        endpoint.start();
        ScriptedEngine.Scripted call = new ScriptedEngine.Scripted("tools/call", ScriptedEngine.STATELESS,
                sink -> sink.send(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}")));
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, call);
        try (RawHttp stream = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}")) {
            assertEquals(200, stream.status());
            stream.nextEvent();
        }
        assertFalse(call.isAbandoned(), "not yet: nothing was written since");
        // what the transport runs every sseKeepAliveMs, until a write finds the client gone
        for (int i = 0; i < 100 && !call.abandoned.await(100, TimeUnit.MILLISECONDS); i++) {
            endpoint.servlet.keepAlive();
        }
        assertTrue(call.isAbandoned(), "the request is cancelled");
    }
}
