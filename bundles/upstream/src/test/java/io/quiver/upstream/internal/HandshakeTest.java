package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class HandshakeTest {

    private final FakeConnection server = new FakeConnection(true);
    private final McpClient client = client(server);

    static McpClient client(FakeConnection connection) {
        ObjectNode capabilities = FakeConnection.JSON.createObjectNode();
        capabilities.putObject("elicitation");
        McpClient client = new McpClient(connection, new McpClient.Events() {
            @Override
            public void notification(String method, JsonNode params) {
            }

            @Override
            public void closed(String why, boolean clean) {
            }
        }, McpClient.implementation("1.2.3"), capabilities);
        connection.open(client);
        return client;
    }

    private CompletableFuture<Handshake.Agreed> open(long probeMillis, Boolean known, Runnable late) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return Handshake.open(client, Handshake.Deadline.in(5_000, "5 s"), probeMillis, known, late);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aServerThatOffers20260728IsSpokenToStatelessly() throws Exception {
        CompletableFuture<Handshake.Agreed> agreed = open(5_000, null, () -> { });
        FakeConnection.Sent discover = server.next();
        assertEquals("server/discover", discover.method());
        JsonNode meta = discover.params().path("_meta");
        assertEquals("2026-07-28", meta.path(McpClient.META_VERSION).asString());
        assertEquals("quiver", meta.path(McpClient.META_CLIENT).path("name").asString());
        assertEquals("1.2.3", meta.path(McpClient.META_CLIENT).path("version").asString());
        assertTrue(meta.path(McpClient.META_CAPABILITIES).has("elicitation"));
        server.result(discover, """
                {"resultType": "complete", "supportedVersions": ["2027-01-01", "2026-07-28", "2025-11-25"],
                 "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "s", "version": "1"}}""");
        Handshake.Agreed a = agreed.get(5, TimeUnit.SECONDS);
        assertEquals("2026-07-28", a.protocolVersion());
        assertTrue(a.stateless());
        assertTrue(a.capabilities().path("tools").path("listChanged").asBoolean());
        assertEquals(Boolean.TRUE, server.stateless);
        assertTrue(server.sent.isEmpty(), "no initialize, no notifications/initialized: " + server.sent);

        client.request("tools/list", null);
        JsonNode listMeta = server.next().params().path("_meta");
        assertEquals("2026-07-28", listMeta.path(McpClient.META_VERSION).asString(), "every request says its revision");
        assertTrue(listMeta.has(McpClient.META_CLIENT) && listMeta.has(McpClient.META_CAPABILITIES));
    }

    @Test
    void anUnsupportedVersionErrorNamesTheRevisionToAskIn() throws Exception {
        CompletableFuture<Handshake.Agreed> agreed = open(5_000, null, () -> { });
        server.error(server.next("server/discover"), -32022, "Unsupported protocol version",
                "{\"supported\": [\"2026-07-28\"], \"requested\": \"2026-07-28\"}");
        FakeConnection.Sent again = server.next("server/discover");
        assertEquals("2026-07-28", again.params().path("_meta").path(McpClient.META_VERSION).asString());
        server.result(again, "{\"supportedVersions\": [\"2026-07-28\"], \"capabilities\": {}}");
        assertTrue(agreed.get(5, TimeUnit.SECONDS).stateless());
    }

    @Test
    void anUnsupportedVersionErrorNamingSessionRevisionsOnlyLeadsToInitialize() throws Exception {
        CompletableFuture<Handshake.Agreed> agreed = open(5_000, null, () -> { });
        server.error(server.next("server/discover"), -32022, "Unsupported protocol version",
                "{\"supported\": [\"2025-06-18\", \"2024-11-05\"]}");
        FakeConnection.Sent init = server.next("initialize");
        assertEquals("2025-06-18", init.params().path("protocolVersion").asString(), "the newest both speak");
        server.result(init, "{\"protocolVersion\": \"2025-06-18\", \"capabilities\": {}, \"serverInfo\": {\"name\": \"s\", \"version\": \"1\"}}");
        Handshake.Agreed a = agreed.get(5, TimeUnit.SECONDS);
        assertFalse(a.stateless());
        assertEquals("2025-06-18", a.protocolVersion());
    }

    @Test
    void anyOtherErrorIsASessionServerThatGetsInitialize() throws Exception {
        CompletableFuture<Handshake.Agreed> agreed = open(5_000, null, () -> { });
        server.error(server.next("server/discover"), -32601, "Method not found", null);
        FakeConnection.Sent init = server.next();
        assertEquals("initialize", init.method());
        assertEquals("2025-11-25", init.params().path("protocolVersion").asString());
        assertFalse(init.params().has("_meta"), "a session revision's initialize carries no request metadata");
        assertTrue(init.params().path("capabilities").has("elicitation"));
        assertEquals("quiver", init.params().path("clientInfo").path("name").asString());
        server.result(init, "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {\"tools\": {}}}");
        Handshake.Agreed a = agreed.get(5, TimeUnit.SECONDS);
        assertEquals("2025-11-25", a.protocolVersion());
        assertFalse(a.stateless());
        assertEquals("notifications/initialized", server.next().method());
        assertEquals("2025-11-25", server.negotiated);
        assertEquals(Boolean.FALSE, server.stateless);

        client.request("tools/list", null);
        assertTrue(server.next().params().isMissingNode(), "session requests carry no _meta of their own");
    }

    @Test
    void silenceIsASessionServerAndALateDiscoverResultIsReported() throws Exception {
        CountDownLatch late = new CountDownLatch(1);
        CompletableFuture<Handshake.Agreed> agreed = open(200, null, late::countDown);
        FakeConnection.Sent discover = server.next("server/discover");
        FakeConnection.Sent init = server.next("initialize");
        server.result(init, "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}}");
        assertFalse(agreed.get(5, TimeUnit.SECONDS).stateless());
        server.result(discover, "{\"supportedVersions\": [\"2026-07-28\"], \"capabilities\": {}}");
        assertTrue(late.await(5, TimeUnit.SECONDS), "the next start may speak the stateless revision");
    }

    @Test
    void aStatelessServerSlowerThanTheProbeIsTakenAtItsLateAnswerWhenItRefusesInitialize() throws Exception {
        CompletableFuture<Handshake.Agreed> agreed = open(200, null, () -> { });
        FakeConnection.Sent discover = server.next("server/discover");
        FakeConnection.Sent init = server.next("initialize");
        // as the Python SDK's stdio server does when it starts slowly: the discover first, then the refusal
        server.result(discover, "{\"supportedVersions\": [\"2026-07-28\"], \"capabilities\": {\"tools\": {}}}");
        server.error(init, -32600, "connection is serving the 2026-07-28 protocol; the initialize handshake is not accepted",
                null);
        Handshake.Agreed a = agreed.get(5, TimeUnit.SECONDS);
        assertTrue(a.stateless(), "no failed start, no restart");
        assertEquals("2026-07-28", a.protocolVersion());
        assertEquals(Boolean.TRUE, server.stateless);
        assertTrue(a.capabilities().has("tools"));
    }

    @Test
    void aSessionServersRefusalOfInitializeStillFailsTheStart() throws Exception {
        CompletableFuture<Handshake.Agreed> agreed = open(200, null, () -> { });
        server.next("server/discover");
        FakeConnection.Sent init = server.next("initialize");
        server.error(init, -32602, "unsupported", null);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> agreed.get(5, TimeUnit.SECONDS));
        assertTrue(failed.getCause().getCause().getMessage().contains("initialize: unsupported"), failed.toString());
    }

    @Test
    void aKnownSessionServerIsNotProbed() throws Exception {
        CompletableFuture<Handshake.Agreed> agreed = open(5_000, false, () -> { });
        FakeConnection.Sent init = server.next();
        assertEquals("initialize", init.method());
        server.result(init, "{\"protocolVersion\": \"2025-03-26\", \"capabilities\": {}}");
        assertEquals("2025-03-26", agreed.get(5, TimeUnit.SECONDS).protocolVersion());
    }

    @Test
    void aRevisionTheClientDoesNotSpeakFailsTheStart() throws Exception {
        CompletableFuture<Handshake.Agreed> agreed = open(5_000, false, () -> { });
        server.result(server.next("initialize"), "{\"protocolVersion\": \"2030-01-01\", \"capabilities\": {}}");
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> agreed.get(5, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("does not speak"), e.getCause().getMessage());
    }

    @Test
    void toolsAreListedAcrossPagesAndInvalidHeaderAnnotationsLeaveTheirToolOut() throws Exception {
        client.stateless("2026-07-28");
        CompletableFuture<List<JsonNode>> tools = CompletableFuture.supplyAsync(() -> {
            try {
                return Handshake.listTools(client, Handshake.Deadline.in(5_000, "5 s"), "test");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        FakeConnection.Sent first = server.next("tools/list");
        assertFalse(first.params().has("cursor"));
        server.result(first, """
                {"tools": [{"name": "a", "inputSchema": {"type": "object"}},
                           {"name": "bad", "inputSchema": {"type": "object", "properties": {
                               "n": {"type": "number", "x-mcp-header": "N"}}}}],
                 "nextCursor": "page2"}""");
        FakeConnection.Sent second = server.next("tools/list");
        assertEquals("page2", second.params().path("cursor").asString());
        server.result(second, """
                {"tools": [{"name": "b", "inputSchema": {"type": "object", "properties": {
                    "r": {"type": "string", "x-mcp-header": "Region"}}}}]}""");
        assertEquals(List.of("a", "b"), tools.get(5, TimeUnit.SECONDS).stream().map(t -> t.path("name").asString()).toList());
    }

    /** A page whose list is not an array is a failing server, not an empty one (it said "ready, 0 tools" before). */
    @Test
    void aListThatIsNotAnArrayFailsTheListing() throws Exception {
        for (String page : new String[] {"{\"tools\": \"nope\"}", "{\"tools\": null}", "{\"tools\": {\"name\": \"a\"}}"}) {
            CompletableFuture<List<JsonNode>> tools = CompletableFuture.supplyAsync(() -> {
                try {
                    return Handshake.listTools(client, Handshake.Deadline.in(5_000, "5 s"), "test");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            server.result(server.next("tools/list"), page);
            ExecutionException failed = assertThrows(ExecutionException.class, () -> tools.get(5, TimeUnit.SECONDS), page);
            assertEquals("tools/list answered tools that is not an array", failed.getCause().getCause().getMessage(), page);
        }
        // a server without tools that leaves the member out (asked anyway) lists nothing, as before
        CompletableFuture<List<JsonNode>> none = CompletableFuture.supplyAsync(() -> {
            try {
                return Handshake.listTools(client, Handshake.Deadline.in(5_000, "5 s"), "test");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        server.result(server.next("tools/list"), "{}");
        assertEquals(List.of(), none.get(5, TimeUnit.SECONDS));
    }
}
