package io.quiver.core.internal.pipeline;

import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallListener;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.RecordingFailed;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 9: the host channel records the result before it is delivered (a recording that fails or does
 * not come in time fails the delivery: the caller gets an error saying so, never the unrecorded
 * result), and once the call is over (however it ended, a task's later) the host hears how it ended
 * and releases what it held for it, and every {@link CallListener} hears the same {@link CallEvent}, with
 * every decision taken. Those that ask hear the call once before too, as its tool is about to run
 * ({@link #running}). Failures after the answer are logged: the caller has it.
 */
final class Record {

    private static final Logger LOG = LoggerFactory.getLogger(Record.class);

    private final Extensions extensions;
    private final HostWait wait;

    Record(Extensions extensions, HostWait wait) {
        this.extensions = extensions;
        this.wait = wait;
    }

    /**
     * The result the caller is to get (after review and limits), recorded by the host first.
     *
     * @return what to deliver: the result, or an error when the host could not record it
     */
    CallToolResult delivered(Call call, CallToolResult result) {
        HostChannel host = call.host();
        if (host == null) {
            return result;
        }
        try {
            wait.ask(call, "record the result", () -> {
                host.record(call.invocation(), Review.toolResult(result));
                return null;
            });
            call.step("record", true, "recorded by the host");
            return result;
        } catch (CancellationException e) {
            throw e;
        } catch (HostWait.HostTimeout e) {
            LOG.warn("Result of {} ({}) not recorded: {}", call.name(), call.scope().invocationId(), e.getMessage());
            call.step("record", false, e.getMessage());
            return Review.undelivered(call, e.getMessage());
        } catch (RecordingFailed e) {
            // a host that says its recording failed is answered as it asked: one line, not a stack trace
            LOG.warn("The host channel did not record {} ({}): {}", call.name(), call.scope().invocationId(), e.getMessage());
            String why = "The host could not record it" + (e.getMessage() == null ? "." : ": " + e.getMessage());
            call.step("record", false, why);
            return Review.undelivered(call, why);
        } catch (RuntimeException e) {
            // anything else is the host's fault, and its message may name the host's internals: the log has it
            LOG.error("The host channel failed to record {} ({})", call.name(), call.scope().invocationId(), e);
            call.step("record", false, "the host failed: " + e);
            return Review.undelivered(call, "The host failed to record it.");
        }
    }

    /** Every check passed and the call's tool is about to run: the listeners that ask hear of it. */
    void running(Call call) {
        List<CallListener> listeners = extensions.runningListeners();
        if (listeners.isEmpty()) {
            return;
        }
        CallEvent event = call.runningEvent();
        for (CallListener listener : listeners) {
            try {
                listener.running(event);
            } catch (RuntimeException e) {
                LOG.error("A call listener failed on {} ({}) before it ran", call.name(), event.invocationId(), e);
            }
        }
    }

    /** The call is over: the host that took part in it hears how it ended, then every listener. */
    void over(Call call) {
        HostChannel host = call.host();
        List<CallListener> listeners = extensions.listeners();
        if (host == null && listeners.isEmpty()) {
            return;
        }
        CallEvent event = call.event();
        if (host != null) {
            try {
                host.over(call.invocation(), event);
            } catch (RuntimeException e) {
                LOG.error("The host channel failed to release {} ({})", call.name(), call.scope().invocationId(), e);
            }
        }
        for (CallListener listener : listeners) {
            try {
                listener.called(event);
            } catch (RuntimeException e) {
                LOG.error("A call listener failed on {} ({})", call.name(), event.invocationId(), e);
            }
        }
    }
}
