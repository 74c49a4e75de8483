package io.quiver.transport.http.internal;

import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The answer to an {@code initialize} on the servlet's path, where the new session's id is set on the response
 * before the exchange runs: when the session was closed meanwhile (the engine closes the session of an
 * {@code initialize} that failed), the id is taken off again, unless the answer streams already.
 */
final class NewSessionAnswer implements MessageSink {

    private final MessageSink answer;
    private final McpSession session;
    private final HttpServletResponse response;

    NewSessionAnswer(MessageSink answer, McpSession session, HttpServletResponse response) {
        this.answer = answer;
        this.session = session;
        this.response = response;
    }

    @Override
    public void send(byte[] message) {
        answer.send(message);
    }

    @Override
    public void complete(byte[] body) {
        forgetClosed();
        answer.complete(body);
    }

    @Override
    public void fail(Receipt.Reason reason, byte[] body) {
        forgetClosed();
        answer.fail(reason, body);
    }

    private void forgetClosed() {
        if (!session.isOpen() && !response.isCommitted()) {
            response.setHeader(McpServlet.SESSION_HEADER, null);
        }
    }
}
