package io.quiver.transport.http.internal;

import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The answer of an exchange the core lane runs on the thread that read it ({@link McpServlet#fastServe}): the
 * response as plain JSON, or 204 when there is none; messages the exchange sends before it (a log message, a
 * progress notification) turn it into one SSE body that carries them and then the response, as the servlet's
 * answer would (without event ids: nothing of it is left to resume). Counted among the bytes clients have not
 * read until they are out.
 */
final class FastAnswer implements MessageSink {

    private static final byte[] EVENT = "event: message\ndata: ".getBytes(StandardCharsets.UTF_8);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.UTF_8);

    private final FastPost post;
    private final Supplier<String> newSession;
    private final StreamBudget budget;
    private List<byte[]> before;
    private boolean done;

    /**
     * @param newSession the session id to tell the client when the answer is written (an initialize's), or
     *                   null: none, also for an {@code initialize} that failed and closed its session
     */
    FastAnswer(FastPost post, Supplier<String> newSession, StreamBudget budget) {
        this.post = post;
        this.newSession = newSession;
        this.budget = budget;
    }

    @Override
    public synchronized void send(byte[] message) {
        if (!done) {
            if (before == null) {
                before = new ArrayList<>();
            }
            before.add(message);
        }
    }

    @Override
    public void complete(byte[] response) {
        finish(200, response);
    }

    @Override
    public void fail(Receipt.Reason reason, byte[] response) {
        finish(HttpErrors.status(reason), response);
    }

    private void finish(int status, byte[] response) {
        List<byte[]> messages;
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            messages = before;
        }
        if (messages != null) {
            ByteArrayOutputStream sse = new ByteArrayOutputStream();
            for (byte[] message : messages) {
                event(sse, message);
            }
            if (response != null) {
                event(sse, response);
            }
            write(200, MediaTypes.SSE + ";charset=utf-8", sse.toByteArray());
        } else if (response == null) {
            post.answer(204, headers(), null, null, null);
        } else {
            write(status, MediaTypes.JSON, response);
        }
    }

    private void write(int status, String type, byte[] body) {
        long length = body.length;
        budget.holdUnsent(length, true); // written without blocking; counted until it is out
        post.answer(status, headers(), type, body, () -> budget.releaseUnsent(length));
    }

    private Map<String, String> headers() {
        String id = newSession.get();
        return id == null ? Map.of() : Map.of(McpServlet.SESSION_HEADER, id);
    }

    private static void event(ByteArrayOutputStream out, byte[] message) {
        out.writeBytes(EVENT);
        out.writeBytes(message);
        out.writeBytes(END);
    }
}
