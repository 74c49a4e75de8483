package io.quiver.core.internal.pipeline;

import io.quiver.api.ProtocolError;
import io.quiver.api.input.InputNeeded;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Input for a request, from where its era gets it: a session client is asked on the request's stream
 * ({@link AskClient}); a 2026-07-28 client gets {@code input_required} and retries with the answers
 * ({@link RequestStateInput}). Prompts and resources, which ask by throwing {@link InputNeeded}, run
 * through the same {@link AttemptLoop} as tools.
 */
public final class InputRounds {

    private static final Logger LOG = LoggerFactory.getLogger(InputRounds.class);

    /** Extension code that asks for input by throwing {@link InputNeeded} (prompts, resources). */
    @FunctionalInterface
    public interface Asking {
        Result run(Map<String, InputResponse> answers) throws Exception;
    }

    private final InputBroker broker;
    private final RequestState state;
    private final IntSupplier maxRounds;

    InputRounds(InputBroker broker, RequestState state, IntSupplier maxRounds) {
        this.broker = broker;
        this.state = state;
        this.maxRounds = maxRounds;
    }

    /**
     * The source of answers for a request of its era.
     *
     * @param target what a 2026-07-28 request state is bound to besides the caller, e.g. {@code tools/call echo}
     */
    AttemptLoop.Source source(RequestScope scope, String target, ObjectNode params) {
        return scope.era().asksClient() ? new AskClient(scope, broker) : new RequestStateInput(scope, state, target, params,
                maxRounds.getAsInt());
    }

    int maxRounds() {
        return maxRounds.getAsInt();
    }

    /**
     * Runs extension code that asks by throwing {@link InputNeeded} to completion (or to
     * {@code input_required}); a {@link ProtocolError} it throws is its answer, and any other failure of
     * its own is logged with the invocation id and answered as an internal error whose text is
     * {@code failure}.
     */
    public Result runAsking(RequestScope scope, String target, ObjectNode params, Asking code, String failure) {
        AttemptLoop.Runner runner = answers -> {
            try {
                return new AttemptLoop.Attempt.Done(code.run(answers));
            } catch (InputNeeded needed) {
                return new AttemptLoop.Attempt.Needs(needed.requests());
            }
        };
        try {
            AttemptLoop.End end = AttemptLoop.run(runner, source(scope, target, params), null, maxRounds());
            return end instanceof AttemptLoop.End.Parked parked ? parked.result() : ((AttemptLoop.End.Done) end).result();
        } catch (McpException | CancellationException e) {
            throw e;
        } catch (ProtocolError refusal) {
            // a prompt or resource that refuses the request (an upstream server's own error, say): its answer
            throw new McpException(refusal.code(), refusal.getMessage(), refusal.data());
        } catch (Exception e) {
            LOG.error("{} failed ({})", target, scope.invocationId(), e);
            throw new McpException(ErrorCodes.INTERNAL_ERROR, failure);
        }
    }
}
