package io.quiver.core.internal.pipeline;

import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallListener;
import io.quiver.api.call.HostChannel;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 9: the host channel records the result as delivered, and once the call is over (however it
 * ended, a task's later) the host releases what it held for it and every {@link CallListener} hears one
 * {@link CallEvent} with every decision taken. Failures here are logged: the caller has its answer.
 */
final class Record {

    private static final Logger LOG = LoggerFactory.getLogger(Record.class);

    private final Extensions extensions;

    Record(Extensions extensions) {
        this.extensions = extensions;
    }

    /** The result the caller gets (after review and limits). */
    void delivered(Call call, CallToolResult result) {
        HostChannel host = call.host();
        if (host == null) {
            return;
        }
        try {
            host.record(call.invocation(), Review.toolResult(result));
        } catch (RuntimeException e) {
            LOG.error("The host channel failed to record {} ({})", call.name(), call.scope().invocationId(), e);
        }
    }

    /** The call is over. */
    void over(Call call) {
        HostChannel host = call.host();
        if (host != null) {
            try {
                host.release(call.invocation());
            } catch (RuntimeException e) {
                LOG.error("The host channel failed to release {} ({})", call.name(), call.scope().invocationId(), e);
            }
        }
        List<CallListener> listeners = extensions.listeners();
        if (listeners.isEmpty()) {
            return;
        }
        CallEvent event = call.event();
        for (CallListener listener : listeners) {
            try {
                listener.called(event);
            } catch (RuntimeException e) {
                LOG.error("A call listener failed on {} ({})", call.name(), event.invocationId(), e);
            }
        }
    }
}
