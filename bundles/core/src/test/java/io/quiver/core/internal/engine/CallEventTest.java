package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.call.CallEvent;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a call listener hears of who called with what, through the engine as a transport drives it: the
 * client's name (the session's {@code clientInfo}, or a 2026-07-28 request's {@code _meta}) and the
 * digest of the arguments as sent, never the arguments.
 */
class CallEventTest {

    private final Catalog catalog = new Catalog();
    private final Extensions extensions = new Extensions();
    private final List<CallEvent> events = new CopyOnWriteArrayList<>();
    private final EngineAssembly assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of()),
            new ToolLimitsRegistry(), extensions);
    private final Engine engine = assembly.engine();

    CallEventTest() {
        catalog.bindTool(call -> Outcome.text("ok"), Map.of("mcp.tool.name", "echo", "mcp.tool.description",
                "test tool echo", "service.id", 4711L, "service.ranking", 0));
        extensions.addListener(events::add);
    }

    @AfterEach
    void close() {
        assembly.close();
    }

    @Test
    void aSessionCallCarriesTheSessionsClientNameAndTheDigestOfItsArguments() throws Exception {
        String session = initialize(",\"clientInfo\":{\"name\":\"audit-client\",\"version\":\"3\"}");
        send(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{\"token\":\"s3cr3t\", \"count\": 2}}}");
        send(session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}");

        assertEquals(2, events.size());
        CallEvent withArguments = events.get(0);
        assertEquals("audit-client", withArguments.clientName());
        assertEquals(sha256("{\"count\":2,\"token\":\"s3cr3t\"}"), withArguments.argumentsDigest());
        assertEquals(CallEvent.Ending.COMPLETED, withArguments.ending());
        CallEvent without = events.get(1);
        assertEquals("audit-client", without.clientName());
        assertNull(without.argumentsDigest(), "no arguments sent: no digest");
    }

    @Test
    void aClientThatGaveNoNameIsUnknown() throws Exception {
        String session = initialize("");
        send(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{}}}");
        assertEquals("unknown", events.get(0).clientName());
        assertEquals(sha256("{}"), events.get(0).argumentsDigest());
    }

    @Test
    void aStatelessCallCarriesTheClientNameOfItsMeta() throws Exception {
        String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"stateless-client\",\"version\":\"1\"}}";
        send(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{\"q\":[1,2]}," + meta + "}}");
        assertEquals(1, events.size());
        assertEquals("stateless-client", events.get(0).clientName());
        assertEquals("2026-07-28", events.get(0).protocolVersion());
        assertEquals(sha256("{\"q\":[1,2]}"), events.get(0).argumentsDigest());
    }

    // -------------------------------------------------------------------------------------------

    /** Opens a session (2025-11-25) with the given extra initialize params, and returns its id. */
    private String initialize(String clientInfo) throws Exception {
        Receipt receipt = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}" + clientInfo + "}}"),
                new Inbound(null, null, CallerIdentity.ANONYMOUS));
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, receipt);
        answer(pending);
        String id = pending.session().id();
        engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                new Inbound(id, null, CallerIdentity.ANONYMOUS));
        return id;
    }

    /** Sends a request in a session, or statelessly ({@code session} null), and waits for its answer. */
    private void send(String session, String message) throws Exception {
        Inbound inbound = session != null ? new Inbound(session, null, CallerIdentity.ANONYMOUS)
                : new Inbound(null, "2026-07-28", CallerIdentity.ANONYMOUS,
                        Map.of("mcp-protocol-version", "2026-07-28", "mcp-method", "tools/call", "mcp-name", "echo"));
        answer(assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(message), inbound)));
    }

    private static void answer(Receipt.Pending pending) throws Exception {
        CompletableFuture<byte[]> done = new CompletableFuture<>();
        pending.exchange().start(new MessageSink() {
            @Override
            public void send(byte[] message) {
            }

            @Override
            public void complete(byte[] response) {
                done.complete(response);
            }
        });
        done.get(10, TimeUnit.SECONDS);
    }

    private static String sha256(String canonical) throws Exception {
        return "sha256:" + HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
