package io.quiver.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientInfoTest {

    @Test
    void aCapabilityWhoseValueIsNullIsNotDeclared() {
        Map<String, Object> declared = new HashMap<>();
        declared.put("sampling", null);
        declared.put("roots", Map.of("listChanged", true));
        ClientInfo client = new ClientInfo("c", "1", declared);
        assertFalse(client.supports("sampling"));
        assertTrue(client.supports("roots"));
        assertEquals(Map.of("roots", Map.of("listChanged", true)), client.capabilities());
    }

    @Test
    void theCapabilitiesAreACopyThatCannotChange() {
        Map<String, Object> declared = new HashMap<>(Map.of("elicitation", Map.of()));
        ClientInfo client = new ClientInfo("c", "1", declared);
        declared.put("sampling", Map.of());
        assertFalse(client.supports("sampling"));
        assertThrows(UnsupportedOperationException.class, () -> client.capabilities().put("x", 1));
        assertEquals(Map.of(), new ClientInfo("c", "1", null).capabilities());
        assertEquals(Map.of(), new ClientInfo("c", "1", Map.of()).capabilities());
    }
}
