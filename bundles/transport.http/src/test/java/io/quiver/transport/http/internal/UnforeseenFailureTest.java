package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.McpEngine;
import io.quiver.lib.config.TypedConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request the engine fails on unforeseen, the JVM's own errors included, is answered 500 with a JSON-RPC
 * "Internal error" and not a word of the failure; before, an {@code OutOfMemoryError} reached the client by name
 * through Jetty's error page.
 */
class UnforeseenFailureTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    /** An engine whose every receipt throws what {@code failure} gives. */
    private static McpEngine failing(Supplier<Throwable> failure) {
        ScriptedEngine engine = new ScriptedEngine();
        engine.script = (message, inbound) -> {
            Throwable t = failure.get();
            if (t instanceof Error e) {
                throw e;
            }
            throw (RuntimeException) t;
        };
        return engine;
    }

    private List<RecordingPost.Answer> post(McpEngine engine) {
        HttpConfig config = TypedConfig.read(HttpConfig.class, Map.of(), null).config();
        McpServlet servlet = new McpServlet(engine, config, timer, HeaderWatch.NONE, new Gatekeeper(false));
        RecordingPost post = new RecordingPost();
        servlet.fastServe(post, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8),
                CallerIdentity.ANONYMOUS);
        return post.answers;
    }

    @Test
    void anErrorOfTheJvmIsAnsweredWithoutItsName() {
        for (Throwable failure : List.of(new OutOfMemoryError("Java heap space"),
                new IllegalStateException("secret detail /srv/quiver/etc"), new StackOverflowError())) {
            List<RecordingPost.Answer> answers = post(failing(() -> failure));
            assertEquals(1, answers.size(), failure.toString());
            RecordingPost.Answer a = answers.get(0);
            assertEquals(500, a.status());
            assertEquals("close", a.headers().get("Connection"));
            assertTrue(a.body().contains("\"message\":\"Internal error\""), a.body());
            assertFalse(a.body().contains("Java heap space") || a.body().contains("secret") || a.body().contains("Error"),
                    a.body());
        }
    }
}
