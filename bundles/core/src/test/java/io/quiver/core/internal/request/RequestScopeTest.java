package io.quiver.core.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.transport.MessageSink;
import io.quiver.core.internal.era.StatelessEra;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
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

    private static RequestScope scope(String params) throws Exception {
        Peer peer = new Peer(CallerIdentity.ANONYMOUS, new ClientInfo("test", "1", Map.of()), "2026-07-28", null, Map.of());
        MessageSink sink = new MessageSink() {
            @Override
            public void send(byte[] message) {
            }

            @Override
            public void complete(byte[] response) {
            }
        };
        return new RequestScope(new StatelessEra(Map.of(), EngineSettings.of(Map.of())), null, peer, IntNode.valueOf(1),
                (ObjectNode) Json.MAPPER.readTree(params), sink);
    }
}
