package io.quiver.core.internal.pipeline;

import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Stage 6, the one loop of attempts and input rounds for calls, tasks, prompts and resources: run an
 * attempt with every answer so far; when it needs input, let the host answer what it will, get the rest
 * from the {@link Source}, and run again. A source either supplies answers at once (asking a session
 * client on the request's stream) or parks the work (an {@code input_required} result for a 2026-07-28
 * client to retry with, a task waiting in {@code input_required} for {@code tasks/update}): no thread
 * waits for the user between parked rounds.
 */
final class AttemptLoop {

    private AttemptLoop() {
    }

    /** What one attempt gave. */
    sealed interface Attempt {
        /** Finished, with this result. */
        record Done(Result result) implements Attempt {
        }

        /** Needs these answers first. */
        record Needs(List<InputRequest> requests) implements Attempt {
        }

        /** Hands the rest to a task (a tool's {@code Outcome.escalate()} where a task may take it). */
        record Escalate() implements Attempt {
        }
    }

    /** How the loop ended. */
    sealed interface End {
        /** The work finished. */
        record Done(Result result) implements End {
        }

        /** The work waits for input: this is the answer for now (an {@code input_required} result, or none). */
        record Parked(Result result) implements End {
        }

        /** The work goes on as a task with these answers. */
        record Escalated(Map<String, InputResponse> answers) implements End {
        }
    }

    /** One attempt, given every answer so far. */
    @FunctionalInterface
    interface Runner {
        Attempt run(Map<String, InputResponse> answers) throws Exception;
    }

    /** Where answers come from. */
    interface Source {
        /** Every answer so far. */
        Map<String, InputResponse> answers();

        /** An answer obtained elsewhere (the host's) for the next attempt. */
        void accept(String key, InputResponse answer);

        /**
         * Gets answers for the requests not answered yet.
         *
         * @return empty when answers were supplied (run again); else the answer for now: the work parks
         */
        Optional<Result> obtain(List<InputRequest> missing) throws Exception;
    }

    /**
     * Runs to the end.
     *
     * @param host answers a request first when it can (empty: the source is asked), or {@code null}
     */
    static End run(Runner runner, Source source, Function<InputRequest, Optional<InputResponse>> host,
            int maxRounds) throws Exception {
        for (int round = 0; round <= maxRounds; round++) {
            Map<String, InputResponse> answers = source.answers();
            Attempt attempt = runner.run(answers);
            if (attempt instanceof Attempt.Done done) {
                return new End.Done(done.result());
            }
            if (attempt instanceof Attempt.Escalate) {
                return new End.Escalated(answers);
            }
            List<InputRequest> missing = new ArrayList<>();
            for (InputRequest request : ((Attempt.Needs) attempt).requests()) {
                if (answers.containsKey(request.key())) {
                    continue;
                }
                Optional<InputResponse> hosted = host == null ? Optional.empty() : host.apply(request);
                if (hosted.isPresent()) {
                    source.accept(request.key(), hosted.get());
                } else {
                    missing.add(request);
                }
            }
            if (!missing.isEmpty()) {
                Optional<Result> parked = source.obtain(missing);
                if (parked.isPresent()) {
                    return new End.Parked(parked.get());
                }
            }
        }
        throw tooManyRounds(maxRounds);
    }

    /**
     * The end of a request or task that asked for input more than {@code maxRounds} times, in one loop or over its
     * retries and updates (each of which runs a loop of its own, so they count their rounds themselves).
     */
    static McpException tooManyRounds(int maxRounds) {
        return new McpException(ErrorCodes.INTERNAL_ERROR, "Input was requested more than " + maxRounds + " times");
    }
}
