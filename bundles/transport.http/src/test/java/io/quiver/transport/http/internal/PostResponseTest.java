package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a streamed answer splits a batch's array into its responses, one SSE event each. */
class PostResponseTest {

    @Test
    void anArraysElementsKeepTheBytesTheyWereWrittenWith() {
        String a = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":1.50,\"s\":\"],[\\\"}\"}}";
        String b = "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"error\":{\"code\":-32600,\"message\":\"{[\"}}";
        List<byte[]> elements = PostResponse.elements(("[" + a + "," + b + "]").getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(a, b), elements.stream().map(e -> new String(e, StandardCharsets.UTF_8)).toList());
        String wide = "{\"id\":2,\"result\":{\"text\":\"\u00e9\u20ac\ud83d\ude00\"}}";
        assertEquals(wide, new String(PostResponse.elements(("[" + wide + "]").getBytes(StandardCharsets.UTF_8)).get(0),
                StandardCharsets.UTF_8), "offsets count bytes, not characters");
    }

    @Test
    void whatIsNotOneWholeArrayIsNotSplit() {
        assertNull(PostResponse.elements("[{\"id\":1}".getBytes(StandardCharsets.UTF_8)));
        assertNull(PostResponse.elements("[{\"id\":1}] {}".getBytes(StandardCharsets.UTF_8)));
        assertNull(PostResponse.elements("{\"id\":1}".getBytes(StandardCharsets.UTF_8)));
    }
}
