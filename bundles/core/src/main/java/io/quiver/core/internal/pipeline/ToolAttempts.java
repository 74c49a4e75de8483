package io.quiver.core.internal.pipeline;

import io.quiver.api.Outcome;

/**
 * A tool's attempts as the {@link AttemptLoop} runs them: {@link Execute} one, then bound its result
 * ({@link BoundOutput}). An escalation ({@code Outcome.escalate()}) ends the loop where a task may take
 * the rest; elsewhere the call is marked escalated and the tool is called again at once, so it does
 * the rest in the call.
 */
final class ToolAttempts {

    private final Execute execute;
    private final BoundOutput boundOutput;

    ToolAttempts(Execute execute, BoundOutput boundOutput) {
        this.execute = execute;
        this.boundOutput = boundOutput;
    }

    /**
     * @param asTask attempts of a task (the task timeout; an escalation continues at once)
     * @param mayEscalate whether an escalation ends the loop for a task to take over
     */
    AttemptLoop.Runner runner(Call call, boolean asTask, boolean mayEscalate) {
        return answers -> {
            Outcome outcome = execute.attempt(call, answers, asTask, call.isEscalated());
            if (outcome instanceof Outcome.Escalate) {
                if (mayEscalate && !call.isEscalated()) {
                    return new AttemptLoop.Attempt.Escalate();
                }
                if (call.isEscalated()) {
                    outcome = Execute.failed(call, "the tool escalated a call that was already escalated");
                } else {
                    call.escalate("continued in the call");
                    outcome = execute.attempt(call, answers, asTask, true);
                    if (outcome instanceof Outcome.Escalate) {
                        outcome = Execute.failed(call, "the tool escalated a call that was already escalated");
                    }
                }
            }
            if (outcome instanceof Outcome.NeedsInput needs) {
                return new AttemptLoop.Attempt.Needs(needs.requests());
            }
            return new AttemptLoop.Attempt.Done(boundOutput.bound(call, ((Outcome.Done) outcome).result()));
        };
    }
}
