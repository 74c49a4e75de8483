package io.quiver.api;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The client as it introduced itself.
 *
 * @param name the client's name, or {@code unknown}
 * @param version the client's version, or an empty string
 * @param capabilities the capabilities object the client declared, as JSON values (members that are JSON
 *     {@code null} left out)
 */
public record ClientInfo(String name, String version, Map<String, Object> capabilities) {

    /** A capability whose value is JSON {@code null} is not declared: it is left out. */
    public ClientInfo {
        if (capabilities == null) {
            capabilities = Map.of();
        } else if (hasNull(capabilities)) {
            Map<String, Object> declared = new HashMap<>(capabilities);
            declared.values().removeIf(Objects::isNull);
            capabilities = Map.copyOf(declared);
        } else {
            capabilities = Map.copyOf(capabilities);
        }
    }

    private static boolean hasNull(Map<String, Object> capabilities) {
        for (Object value : capabilities.values()) { // not containsValue(null): an immutable map throws
            if (value == null) {
                return true;
            }
        }
        return false;
    }

    /** Whether the client declared a top-level capability ({@code elicitation}, {@code sampling}, {@code roots}). */
    public boolean supports(String capability) {
        return capabilities.containsKey(capability);
    }
}
