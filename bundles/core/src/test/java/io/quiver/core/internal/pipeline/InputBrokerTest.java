package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.ClientInfo;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.rpc.McpException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A client's answer to a question, read into what the tool gets, or refused when it has not the result's shape. */
class InputBrokerTest {

    private static final InputRequest.Sampling SAMPLING = new InputRequest.Sampling("s", List.of(), 10, null);

    /**
     * Quiver's questions are forms: a client declaring elicitation in URL mode only is not sent one (the spec: no
     * request in a mode the client did not declare), and the missing capability names the form mode; a client
     * declaring elicitation without modes takes forms, as before modes existed.
     */
    @Test
    void aFormGoesOnlyToAClientThatTakesForms() {
        InputRequest.Elicitation form = new InputRequest.Elicitation("k", "Name?", Map.of("type", "object"));
        assertEquals(Map.of("elicitation", Map.of("form", Map.of())), InputBroker.undeclared(client(Map.of("elicitation",
                Map.of("url", Map.of()))), form));
        assertEquals(Map.of("elicitation", Map.of()), InputBroker.undeclared(client(Map.of("sampling", Map.of())), form));
        assertNull(InputBroker.undeclared(client(Map.of("elicitation", Map.of())), form));
        assertNull(InputBroker.undeclared(client(Map.of("elicitation", Map.of("form", Map.of(), "url", Map.of()))), form));
        assertNull(InputBroker.undeclared(client(Map.of("sampling", Map.of())), SAMPLING));
        assertEquals(Map.of("sampling", Map.of()), InputBroker.undeclared(client(Map.of("elicitation", Map.of())), SAMPLING));
    }

    private static ClientInfo client(Map<String, Object> capabilities) {
        return new ClientInfo("c", "1", capabilities);
    }

    /**
     * A sampling answer without content is no answer: refused (-32602), as a malformed elicitation answer is; before,
     * it reached the tool as a null content (an upstream's bridge then failed with a NullPointerException).
     */
    @Test
    void aSamplingAnswerWithoutContentIsRefused() {
        McpException refused = assertThrows(McpException.class,
                () -> InputBroker.answer(SAMPLING, Json.MAPPER.readTree("{\"role\":\"assistant\",\"model\":\"m\"}")));
        assertTrue(refused.getMessage().contains("is not a valid sampling/createMessage result"), refused.getMessage());
        InputResponse.Sampled sampled = assertInstanceOf(InputResponse.Sampled.class, InputBroker.answer(SAMPLING,
                Json.MAPPER.readTree("{\"role\":\"assistant\",\"model\":\"m\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}")));
        assertEquals("hi", assertInstanceOf(TextContent.class, sampled.content()).text());
    }
}
