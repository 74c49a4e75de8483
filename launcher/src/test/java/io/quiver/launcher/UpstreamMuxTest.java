package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The multiplexer of a shared upstream connection, between a recorded wire (what the server would read)
 * and recorded receivers (what each container would read): ids and progress tokens rewritten so two
 * containers never collide, answers and progress back to the one that asked with its own ids,
 * notifications to all, the server's questions routed or refused, a detach cancelling upstream.
 */
class UpstreamMuxTest {

    private final List<ObjectNode> wire = new CopyOnWriteArrayList<>();
    private final UpstreamMux mux = new UpstreamMux("everything", wire::add,
            UpstreamMux.JSON.createArrayNode().add(UpstreamMux.JSON.createObjectNode().put("uri", "file:///work")));
    private final List<JsonNode> toA = new CopyOnWriteArrayList<>();
    private final List<JsonNode> toB = new CopyOnWriteArrayList<>();

    private static ObjectNode json(String text) {
        return (ObjectNode) UpstreamMux.JSON.readTree(text);
    }

    private static java.util.function.Consumer<String> into(List<JsonNode> list) {
        return text -> list.add(UpstreamMux.JSON.readTree(text));
    }

    private ObjectNode lastOnWire() {
        return wire.get(wire.size() - 1);
    }

    @Test
    void sameIdsAndTokensOfTwoContainersNeverMeetAndComeBackAsTheirOwn() throws Exception {
        UpstreamMux.Attachment a = mux.attach(into(toA));
        UpstreamMux.Attachment b = mux.attach(into(toB));
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{\"message\":\"%s\"},\"_meta\":{\"progressToken\":\"quiver-1\"}}}";
        a.accept(call.formatted("from a"));
        ObjectNode fromA = lastOnWire();
        b.accept(call.formatted("from b"));
        ObjectNode fromB = lastOnWire();

        assertNotEquals(fromA.get("id"), fromB.get("id"), "one id space on the wire");
        String tokenA = fromA.path("params").path("_meta").path("progressToken").asString();
        String tokenB = fromB.path("params").path("_meta").path("progressToken").asString();
        assertNotEquals(tokenA, tokenB, "one token space on the wire");
        assertEquals("from b", fromB.path("params").path("arguments").path("message").asString(), "the rest goes as it is");
        assertEquals(fromA.get("id").asLong(), mux.wireId(a, UpstreamMux.JSON.getNodeFactory().numberNode(1)));

        // progress and answers in the other order
        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\""
                + tokenB + "\",\"progress\":1,\"total\":2}}"));
        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":" + fromB.get("id") + ",\"result\":{\"content\":[{\"type\":"
                + "\"text\",\"text\":\"Echo: from b\"}]}}"));
        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":" + fromA.get("id") + ",\"result\":{\"content\":[{\"type\":"
                + "\"text\",\"text\":\"Echo: from a\"}]}}"));

        assertEquals(1, toA.size(), toA.toString());
        assertEquals(1, toA.get(0).path("id").asInt());
        assertEquals("Echo: from a", toA.get(0).path("result").path("content").get(0).path("text").asString());
        assertEquals(2, toB.size(), toB.toString());
        assertEquals("quiver-1", toB.get(0).path("params").path("progressToken").asString(), "b's own token");
        assertEquals(1, toB.get(0).path("params").path("progress").asInt());
        assertEquals(1, toB.get(1).path("id").asInt());
        assertEquals("Echo: from b", toB.get(1).path("result").path("content").get(0).path("text").asString());
        assertEquals(-1, mux.wireId(a, UpstreamMux.JSON.getNodeFactory().numberNode(1)), "answered: forgotten");
    }

    @Test
    void aCancellationNamesTheRequestByTheWireIdAndALateAnswerIsDropped() throws Exception {
        UpstreamMux.Attachment a = mux.attach(into(toA));
        a.accept("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        long wireId = lastOnWire().get("id").asLong();
        a.accept("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"x\",\"reason\":\"r\"}}");
        ObjectNode cancelled = lastOnWire();
        assertEquals("notifications/cancelled", cancelled.path("method").asString());
        assertEquals(wireId, cancelled.path("params").path("requestId").asLong());
        assertEquals("r", cancelled.path("params").path("reason").asString());

        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":" + wireId + ",\"result\":{}}"));
        assertEquals(List.of(), toA, "an answer after the cancellation is not the container's any more");
        int before = wire.size();
        a.accept("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"x\"}}");
        assertEquals(before, wire.size(), "a request no longer in flight is not cancelled twice");
    }

    @Test
    void notificationsGoToAllPingAndRootsAreAnsweredHere() throws Exception {
        mux.attach(into(toA));
        mux.attach(into(toB));
        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
        assertEquals("notifications/tools/list_changed", toA.get(0).path("method").asString());
        assertEquals("notifications/tools/list_changed", toB.get(0).path("method").asString());

        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}"));
        assertEquals("s1", lastOnWire().path("id").asString());
        assertTrue(lastOnWire().path("result").isObject(), lastOnWire().toString());
        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"roots/list\"}"));
        assertEquals("file:///work", lastOnWire().path("result").path("roots").get(0).path("uri").asString());
        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"something/else\"}"));
        assertEquals(-32601, lastOnWire().path("error").path("code").asInt());
        assertEquals(1, toA.size(), "none of those reached a container");
        assertEquals(1, toB.size());
    }

    @Test
    void theServersQuestionGoesToTheOneContainerWithACallElseItIsRefused() throws Exception {
        UpstreamMux.Attachment a = mux.attach(into(toA));
        UpstreamMux.Attachment b = mux.attach(into(toB));
        String elicit = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"elicitation/create\",\"params\":{\"message\":\"?\"}}";

        mux.fromServer(json(elicit.formatted(100)));
        assertTrue(lastOnWire().path("error").path("message").asString().contains("cannot tell which caller asked"),
                lastOnWire().toString());

        a.accept("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"ask\"}}");
        b.accept("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        mux.fromServer(json(elicit.formatted(101)));
        assertEquals(101, toA.get(0).path("id").asInt(), "a has the only call: the question is a's");
        assertEquals(List.of(), toB);
        a.accept("{\"jsonrpc\":\"2.0\",\"id\":101,\"result\":{\"action\":\"decline\"}}");
        assertEquals(101, lastOnWire().path("id").asInt());
        assertEquals("decline", lastOnWire().path("result").path("action").asString());

        b.accept("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ask\"}}");
        mux.fromServer(json(elicit.formatted(102)));
        assertEquals(102, lastOnWire().path("id").asInt());
        assertTrue(lastOnWire().path("error").path("message").asString().contains("2 Quiver containers"),
                lastOnWire().toString());
    }

    @Test
    void aDetachCancelsItsCallsUpstreamAndLeavesTheOthers() throws Exception {
        UpstreamMux.Attachment a = mux.attach(into(toA));
        UpstreamMux.Attachment b = mux.attach(into(toB));
        a.accept("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        long aWire = lastOnWire().get("id").asLong();
        b.accept("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        long bWire = lastOnWire().get("id").asLong();
        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":55,\"method\":\"sampling/createMessage\",\"params\":{}}"));
        assertTrue(lastOnWire().has("error"), "two callers: refused");

        a.close();
        ObjectNode cancelled = lastOnWire();
        assertEquals("notifications/cancelled", cancelled.path("method").asString());
        assertEquals(aWire, cancelled.path("params").path("requestId").asLong());
        assertEquals(List.of(b), mux.attachments());
        assertThrows(UncheckedIOException.class, () -> a.accept("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}"));

        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":" + aWire + ",\"result\":{}}"));
        mux.fromServer(json("{\"jsonrpc\":\"2.0\",\"id\":" + bWire + ",\"result\":{\"ok\":true}}"));
        assertEquals(List.of(), toA);
        assertTrue(toB.get(0).path("result").path("ok").asBoolean(), toB.toString());
    }

    @Test
    void theEndTellsEveryAttachmentOnceAndNoneAttachesAfter() throws Exception {
        mux.attach(into(toA));
        mux.attach(into(toB));
        var own = mux.request("initialize", UpstreamMux.JSON.createObjectNode());
        mux.end("the process exited with status 1");
        assertEquals("the process exited with status 1", toA.get(0).path(UpstreamMux.CLOSED).asString());
        assertEquals("the process exited with status 1", toB.get(0).path(UpstreamMux.CLOSED).asString());
        assertTrue(own.isCompletedExceptionally());
        IOException refused = assertThrows(IOException.class, () -> mux.attach(into(toA)));
        assertTrue(refused.getMessage().contains("not running"), refused.getMessage());
        mux.end("again");
        assertEquals(1, toA.size());
    }
}
