package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.rpc.McpException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A client's answer to a question, read into what the tool gets, or refused when it has not the result's shape. */
class InputBrokerTest {

    private static final InputRequest.Sampling SAMPLING = new InputRequest.Sampling("s", List.of(), 10, null);

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
