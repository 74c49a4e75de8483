package io.quiver.core.internal.messages;

/** The {@code _meta} keys of the stateless era (2026-07-28). */
public final class Meta {

    public static final String VERSION = "io.modelcontextprotocol/protocolVersion";
    public static final String CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    public static final String CLIENT = "io.modelcontextprotocol/clientInfo";
    public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
    public static final String SERVER = "io.modelcontextprotocol/serverInfo";
    public static final String SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

    private Meta() {
    }
}
