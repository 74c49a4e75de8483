package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A shared upstream with a real child process (FakeServer.java, run from source, which starts a child of
 * its own): initialized once, two attachments with the same ids answered apart, the process and its child
 * ended by {@link SharedUpstream#close}, a process that dies ending the attachments, attaching to it then
 * refused, and the host's start bringing it back.
 */
class SharedUpstreamTest {

    private static final long WAIT_S = 60;

    private static SharedUpstream fake() throws Exception {
        Path server = Path.of(SharedUpstreamTest.class.getResource("FakeServer.java").toURI());
        String jvm = ProcessHandle.current().info().command().orElse("java");
        return SharedUpstream.stdio("fake", List.of(jvm, server.toString()), Map.of(), null)
                .startTimeout(java.time.Duration.ofSeconds(WAIT_S));
    }

    private static JsonNode next(BlockingQueue<String> received) throws InterruptedException {
        String text = received.poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(text, "nothing received");
        return UpstreamMux.JSON.readTree(text);
    }

    private static String call(String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\"}}";
    }

    @Test
    void oneProcessInitializedOnceServesTwoAttachmentsAndEndsWithItsTree() throws Exception {
        SharedUpstream fake = fake().start();
        try {
            assertTrue(fake.running());
            JsonNode init = UpstreamMux.JSON.readTree(fake.initializeResult());
            assertEquals(SharedUpstream.SESSION_VERSIONS.get(0), init.path("protocolVersion").asString());
            assertEquals("fake", init.path("serverInfo").path("name").asString());
            ProcessHandle process = ProcessHandle.of(fake.pid()).orElseThrow();
            List<ProcessHandle> children = process.descendants().toList();
            assertFalse(children.isEmpty(), "the server's own child runs");

            BlockingQueue<String> toA = new LinkedBlockingQueue<>();
            BlockingQueue<String> toB = new LinkedBlockingQueue<>();
            UpstreamMux.Attachment a = fake.attach(toA::add);
            UpstreamMux.Attachment b = fake.attach(toB::add);
            a.accept(call("from-a"));
            b.accept(call("from-b"));
            JsonNode answerA = next(toA);
            JsonNode answerB = next(toB);
            assertEquals(1, answerA.path("id").asInt());
            assertEquals("from-a", answerA.path("result").path("content").get(0).path("text").asString());
            assertEquals(1, answerB.path("id").asInt());
            assertEquals("from-b", answerB.path("result").path("content").get(0).path("text").asString());

            fake.close();
            assertFalse(fake.running());
            process.onExit().get(WAIT_S, TimeUnit.SECONDS);
            for (ProcessHandle child : children) {
                child.onExit().get(WAIT_S, TimeUnit.SECONDS);
            }
            assertEquals("the host closed it", next(toA).path(UpstreamMux.CLOSED).asString());
            assertEquals("the host closed it", next(toB).path(UpstreamMux.CLOSED).asString());
            IOException refused = assertThrows(IOException.class, () -> fake.attach(toA::add));
            assertTrue(refused.getMessage().contains("is not running (the host closed it)"), refused.getMessage());
        } finally {
            fake.close();
        }
    }

    @Test
    void aProcessThatDiesEndsItsAttachmentsUntilTheHostStartsItAgain() throws Exception {
        SharedUpstream fake = fake();
        IOException never = assertThrows(IOException.class, () -> fake.attach(text -> { }));
        assertTrue(never.getMessage().contains("never started"), never.getMessage());
        fake.start();
        try {
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            fake.attach(received::add);
            long first = fake.pid();
            // a server killed leaves its child orphaned (out of any stop's reach): the test ends that one itself
            ProcessHandle.of(first).orElseThrow().descendants().forEach(ProcessHandle::destroyForcibly);
            ProcessHandle.of(first).orElseThrow().destroyForcibly();

            String closed = next(received).path(UpstreamMux.CLOSED).asString();
            assertTrue(closed.startsWith("the process exited with status"), closed);
            assertFalse(fake.running());
            IOException refused = assertThrows(IOException.class, () -> fake.attach(text -> { }));
            assertTrue(refused.getMessage().contains("the process exited"), refused.getMessage());

            fake.start();
            assertNotEquals(first, fake.pid());
            BlockingQueue<String> again = new LinkedBlockingQueue<>();
            fake.attach(again::add).accept(call("again"));
            assertEquals("again", next(again).path("result").path("content").get(0).path("text").asString());
        } finally {
            fake.close();
        }
    }
}
