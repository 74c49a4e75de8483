package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.call.Decision;
import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptResult;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code prompts/get} of a prompt the caller cannot have: one that does not exist and one the policy
 * hides are both invalid params (-32602), word for word the same answer, and the hidden one never renders.
 */
class UnknownPromptTest {

    private static final AtomicLong SERVICE_IDS = new AtomicLong(7000);
    private static final int INVALID_PARAMS = -32602;
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private final Extensions extensions = new Extensions();
    private final Catalog catalog = new Catalog();
    /** How often a prompt rendered: a hidden one must not. */
    private final AtomicInteger rendered = new AtomicInteger();
    private EngineAssembly assembly;
    private SessionClient client;
    private String sessionId;

    @BeforeEach
    void setUp() throws Exception {
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("clientRequestTimeoutMs", 2_000,
                "requestStateKeys", List.of("a-signing-key-of-at-least-32-characters"))), new ToolLimitsRegistry(),
                extensions);
        for (String name : List.of("greeting", "secret")) {
            Map<String, Object> props = new HashMap<>();
            props.put("mcp.prompt.name", name);
            props.put("service.id", SERVICE_IDS.incrementAndGet());
            catalog.bindPrompt(request -> {
                rendered.incrementAndGet();
                return new PromptResult(name, List.of(new PromptMessage("user", new TextContent("say " + name))));
            }, props);
        }
        extensions.addPolicy((caller, target) -> "secret".equals(target.name()) ? Decision.deny("not for you")
                : Decision.allow(), 0, 1L);
        client = SessionClient.open(assembly.engine());
        sessionId = client.sessionId();
    }

    @AfterEach
    void tearDown() {
        assembly.close();
    }

    @Test
    void anUnknownPromptIsInvalidParams() throws Exception {
        JsonNode error = get(sessionId, "nothing", "").path("error");
        assertEquals(INVALID_PARAMS, error.path("code").asInt(), error.toString());
        assertEquals("Unknown prompt: nothing", error.path("message").asString(), error.toString());
        assertEquals(0, rendered.get());
    }

    @Test
    void aPromptThePolicyHidesIsAnsweredExactlyAsAMissingOneAndNeverRenders() throws Exception {
        JsonNode hidden = get(sessionId, "secret", "");
        JsonNode missing = get(sessionId, "nothing", "");
        assertEquals(INVALID_PARAMS, hidden.path("error").path("code").asInt(), hidden.toString());
        assertEquals(INVALID_PARAMS, missing.path("error").path("code").asInt(), missing.toString());
        assertSameError(hidden, missing);
        assertFalse(hidden.toString().contains("not for you"), "the policy's reason would tell the prompt exists");
        assertEquals(0, rendered.get(), "the hidden prompt must not render");

        JsonNode allowed = get(sessionId, "greeting", "");
        assertEquals("say greeting", allowed.path("result").path("messages").path(0).path("content").path("text")
                .asString(), allowed.toString());
        assertEquals(1, rendered.get());
    }

    @Test
    void inTheStatelessRevisionTooAHiddenAndAMissingPromptAreTheSameInvalidParams() throws Exception {
        JsonNode hidden = get(null, "secret", "," + META);
        JsonNode missing = get(null, "nothing", "," + META);
        assertEquals(INVALID_PARAMS, hidden.path("error").path("code").asInt(), hidden.toString());
        assertEquals(INVALID_PARAMS, missing.path("error").path("code").asInt(), missing.toString());
        assertEquals("Unknown prompt: nothing", missing.path("error").path("message").asString(), missing.toString());
        assertSameError(hidden, missing);
        assertEquals(0, rendered.get());
    }

    // -------------------------------------------------------------------------------------------

    /** The same error, word for word once the names are swapped. */
    private static void assertSameError(JsonNode hidden, JsonNode missing) {
        assertTrue(hidden.has("error"), hidden.toString());
        assertEquals(missing.toString(), hidden.toString().replace("secret", "nothing"));
    }

    /** {@code prompts/get} of a prompt, in the session or (none) as a 2026-07-28 request with more params. */
    private JsonNode get(String session, String name, String more) throws Exception {
        return client.requestIn(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/get\","
                + "\"params\":{\"name\":\"" + name + "\"" + more + "}}").response();
    }
}
