package io.quiver.api;

import java.util.Map;

/**
 * The client as it introduced itself.
 *
 * @param name the client's name, or {@code unknown}
 * @param version the client's version, or an empty string
 * @param capabilities the capabilities object the client declared, as JSON values
 */
public record ClientInfo(String name, String version, Map<String, Object> capabilities) {

    public ClientInfo {
        capabilities = capabilities == null ? Map.of() : Map.copyOf(capabilities);
    }

    /** Whether the client declared a top-level capability ({@code elicitation}, {@code sampling}, {@code roots}). */
    public boolean supports(String capability) {
        return capabilities.containsKey(capability);
    }
}
