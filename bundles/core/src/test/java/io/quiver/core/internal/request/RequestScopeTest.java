package io.quiver.core.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.transport.MessageSink;
import io.quiver.core.internal.era.StatelessEra;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.ObjectNode;

class RequestScopeTest {

    @Test
    void aToolSeesTheCallersMetaButNotTheProtocolsKeys() throws Exception {
        RequestScope scope = scope("""
                {"name": "t", "_meta": {"progressToken": "p-1",
                 "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                 "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
                 "example.com/trace": {"id": "t-1", "hops": [1, 2]}, "flag": true, "none": null}}""");
        Map<String, Object> meta = scope.meta();
        assertEquals(List.of("example.com/trace", "flag", "none"), List.copyOf(meta.keySet()));
        assertEquals(Map.of("id", "t-1", "hops", List.of(1, 2)), meta.get("example.com/trace"));
        assertEquals(true, meta.get("flag"));
        assertThrows(UnsupportedOperationException.class, () -> meta.put("io.quiver/context", "forged"));
    }

    @Test
    void noMetaOrAMetaThatIsNotAnObjectIsEmpty() throws Exception {
        assertEquals(Map.of(), scope("{\"name\": \"t\"}").meta());
        assertEquals(Map.of(), scope("{\"name\": \"t\", \"_meta\": [1]}").meta());
    }

    /** 2024-11-05's progress notification has no message (2025-03-26 added it): a strict client of it refuses one. */
    @Test
    void aProgressMessageGoesOnlyToRevisionsThatHaveIt() throws Exception {
        for (String version : new String[] {"2024-11-05", "2025-03-26", "2026-07-28"}) {
            List<byte[]> sent = new ArrayList<>();
            scope("{\"name\": \"t\", \"_meta\": {\"progressToken\": \"p\"}}", version, sent).progress(1, 2.0, "half");
            JsonNode params = Json.MAPPER.readTree(sent.get(0)).path("params");
            assertEquals(1, params.path("progress").asInt(), version);
            assertEquals(version.equals("2024-11-05") ? null : "half", params.path("message").asString(null), version);
        }
    }

    private static RequestScope scope(String params) throws Exception {
        return scope(params, "2026-07-28", new ArrayList<>());
    }

    private static RequestScope scope(String params, String version, List<byte[]> sent) throws Exception {
        Peer peer = new Peer(CallerIdentity.ANONYMOUS, new ClientInfo("test", "1", Map.of()), version, null, Map.of());
        MessageSink sink = new MessageSink() {
            @Override
            public void send(byte[] message) {
                sent.add(message);
            }

            @Override
            public void complete(byte[] response) {
            }
        };
        return new RequestScope(new StatelessEra(Map.of(), EngineSettings.of(Map.of())), null, peer, IntNode.valueOf(1),
                (ObjectNode) Json.MAPPER.readTree(params), sink);
    }
}
