package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quiver.api.transport.Receipt;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The answer the core lane gives for an exchange it runs: what a client receives for each way the exchange
 * ends, and the unread bytes it holds until they are written.
 */
class FastAnswerTest {

    private final RecordingPost post = new RecordingPost();
    private final List<RecordingPost.Answer> answers = post.answers;
    private final StreamBudget budget = new StreamBudget();

    @Test
    void aResponseAloneIsPlainJsonCountedUntilWritten() {
        FastAnswer answer = new FastAnswer(post, () -> "s1", budget);

        answer.complete(bytes("{\"id\":1}"));
        answer.complete(bytes("{\"id\":2}"));

        assertEquals(1, answers.size());
        RecordingPost.Answer a = answers.get(0);
        assertEquals(200, a.status());
        assertEquals(MediaTypes.JSON, a.type());
        assertEquals("{\"id\":1}", a.body());
        assertEquals(Map.of("Mcp-Session-Id", "s1"), a.headers());
        assertEquals(8, budget.unsent());
        a.written().run();
        assertEquals(0, budget.unsent());
    }

    @Test
    void aSessionClosedBeforeTheAnswerIsNotNamed() {
        AtomicBoolean open = new AtomicBoolean(true);
        FastAnswer answer = new FastAnswer(post, () -> open.get() ? "s1" : null, budget);
        open.set(false); // an initialize that failed: the engine closed its session before answering

        answer.complete(bytes("{\"id\":1,\"error\":{\"code\":-32602}}"));

        assertEquals(Map.of(), answers.get(0).headers());
    }

    @Test
    void messagesBeforeTheResponseMakeOneEventStreamEndingWithIt() {
        FastAnswer answer = new FastAnswer(post, () -> null, budget);

        answer.send(bytes("{\"method\":\"notifications/progress\"}"));
        answer.send(bytes("{\"method\":\"notifications/message\"}"));
        answer.complete(bytes("{\"id\":3}"));
        answer.send(bytes("{\"method\":\"late\"}"));

        assertEquals(1, answers.size());
        RecordingPost.Answer a = answers.get(0);
        assertEquals(200, a.status());
        assertEquals(MediaTypes.SSE + ";charset=utf-8", a.type());
        assertEquals("event: message\ndata: {\"method\":\"notifications/progress\"}\n\n"
                + "event: message\ndata: {\"method\":\"notifications/message\"}\n\n"
                + "event: message\ndata: {\"id\":3}\n\n", a.body());
        assertEquals(Map.of(), a.headers());
    }

    @Test
    void noResponseIs204AndAFailureItsStatus() {
        new FastAnswer(post, () -> null, budget).complete(null);
        new FastAnswer(post, () -> null, budget).fail(Receipt.Reason.UNAVAILABLE, bytes("{\"error\":{}}"));

        assertEquals(204, answers.get(0).status());
        assertNull(answers.get(0).body());
        assertEquals(503, answers.get(1).status());
        assertEquals("{\"error\":{}}", answers.get(1).body());
    }

    @Test
    void aFailureAfterMessagesEndsTheStreamWithTheError() {
        FastAnswer answer = new FastAnswer(post, () -> null, budget);

        answer.send(bytes("{\"method\":\"notifications/message\"}"));
        answer.fail(Receipt.Reason.INVALID_REQUEST, bytes("{\"error\":{}}"));

        RecordingPost.Answer a = answers.get(0);
        assertEquals(200, a.status());
        assertEquals(MediaTypes.SSE + ";charset=utf-8", a.type());
        assertEquals("event: message\ndata: {\"method\":\"notifications/message\"}\n\nevent: message\ndata: {\"error\":{}}\n\n",
                a.body());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
