package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/**
 * Takes a moment before answering, so a transport can close the response stream mid-call and the
 * client has to fetch the result by reconnecting with {@code Last-Event-ID} (SEP-1699).
 */
@Component(service = Tool.class)
@McpTool(name = "test_reconnection",
        description = "Tests SSE stream disconnection and client reconnection (SEP-1699): the result is "
                + "ready only after a short delay, so it can be delivered after the client reconnects.")
public final class ReconnectionTool implements Tool {

    static final String TEXT = "Reconnection test completed successfully. If you received this, "
            + "the client properly reconnected after stream closure.";

    static final long DELAY_MILLIS = 300;

    @Override
    public Outcome call(ToolCall call) throws InterruptedException {
        Fixtures.pause(DELAY_MILLIS);
        return Outcome.text(TEXT);
    }
}
