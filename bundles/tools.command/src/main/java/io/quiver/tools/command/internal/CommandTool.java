package io.quiver.tools.command.internal;

import io.quiver.api.LogLevel;
import io.quiver.api.Outcome;
import io.quiver.api.RequestContext;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.lib.external.OutcomeEnvelope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One configured command as a {@link Tool}. Each attempt fills the command line from the validated
 * arguments ({@link ArgvTemplate}; a refused value runs nothing), runs it in its own environment
 * ({@link #environment}) with {@link CommandRun}, and reads its stdout: Quiver's Outcome envelope as the
 * outcome it states ({@code needs_input} makes the engine ask and call again, and the command runs again
 * with every answer so far, in {@value #ANSWERS} or on stdin as configured), anything else as text. A
 * non-zero exit status is an error the model reads, with the end of stderr.
 *
 * <p>A process's environment can be read by every process of the same user
 * ({@code /proc/PID/environ}), its stdin cannot. So a tool that passes answers in the environment does
 * not ask for a secret: a command of such a tool that asks for a sensitive answer fails the call, and
 * the operator is told to configure {@code answersVia = stdin}. Refused when asked, a secret is never
 * typed in vain, and never reaches an environment.
 */
final class CommandTool implements Tool {

    private static final Logger LOG = LoggerFactory.getLogger(CommandTool.class);

    /** The answers gathered so far, as a JSON object by request key. */
    static final String ANSWERS = "QUIVER_ANSWERS";
    /** The validated arguments, as a JSON object. */
    static final String ARGS = "QUIVER_ARGS";

    private final CommandSpec spec;
    private final Runs runs;

    CommandTool(CommandSpec spec, Runs runs) {
        this.spec = spec;
        this.runs = runs;
    }

    CommandSpec spec() {
        return spec;
    }

    @Override
    public Outcome call(ToolCall call) {
        Map<String, Object> arguments = call.arguments();
        List<String> filled;
        try {
            filled = spec.argv().fill(arguments, spec.defaults(), spec.optionArguments());
        } catch (ArgvTemplate.Refused e) {
            return Outcome.done(ToolResult.error("The command was not run: " + e.getMessage() + "."));
        }
        List<String> command = new ArrayList<>();
        if (spec.shell()) {
            command.addAll(List.of(spec.shellPath(), "-c", spec.script(), spec.name())); // $0 is the tool's name
        }
        command.addAll(filled);
        Path directory = spec.workingDirectory();
        if (!Files.isDirectory(directory)) {
            return Outcome.done(ToolResult.error(hinted("The command was not run: its working directory " + directory
                    + " does not exist.")));
        }
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        environment(builder.environment(), call);
        RequestContext context = call.context();
        byte[] stdin = spec.answersOnStdin() ? (answers(call.answers()) + "\n").getBytes(StandardCharsets.UTF_8) : null;
        CommandRun.Result result;
        try {
            result = CommandRun.run(runs, builder, spec.name(), spec.timeoutMs(), spec.maxOutputBytes(), stdin,
                    lines(context), context::isCancelled);
        } catch (IOException e) {
            LOG.warn("Command tool {} ({}): {} could not be started: {}", spec.name(), spec.source(), command.get(0),
                    e.getMessage());
            return Outcome.done(ToolResult.error(hinted("The command " + spec.programName() + " could not be started: "
                    + e.getMessage())));
        }
        return outcome(result);
    }

    /**
     * The command's environment: the variables of Quiver's environment that {@code inheritEnv} names,
     * the configured {@code env}, then Quiver's own: {@value #ARGS}, {@code QUIVER_ARG_<NAME>} per
     * argument the input schema declares (its default when the call leaves it out), {@value #ANSWERS} (unless the answers go to stdin), {@code QUIVER_TOOL},
     * {@code QUIVER_INVOCATION_ID}, {@code QUIVER_TENANT}, {@code QUIVER_PROJECT} (when there is one) and
     * {@code QUIVER_CLIENT_ELICITATION} ({@code true} when the caller's client can be asked).
     */
    void environment(Map<String, String> env, ToolCall call) {
        env.keySet().removeIf(name -> spec.inheritEnv().stream().noneMatch(glob -> glob.matcher(name).matches()));
        env.keySet().removeIf(name -> name.startsWith("QUIVER_"));
        env.putAll(spec.env());
        Map<String, Object> arguments = call.arguments();
        env.put(ARGS, CommandSpec.JSON.writeValueAsString(arguments));
        // only what the schema declares, so that an argument it does not (DIR beside dir) never sets a variable
        spec.variables().forEach((name, variable) -> {
            Object value = arguments.get(name);
            if (value == null) {
                value = spec.defaults().get(name);
            }
            if (value != null) {
                String text;
                try {
                    text = ArgvTemplate.scalar(name, value);
                } catch (ArgvTemplate.Refused e) {
                    text = CommandSpec.JSON.writeValueAsString(value);
                }
                if (text.indexOf('\0') < 0) {
                    env.put(variable, text);
                }
            }
        });
        if (!spec.answersOnStdin()) {
            env.put(ANSWERS, answers(call.answers()));
        }
        RequestContext context = call.context();
        env.put("QUIVER_TOOL", spec.name());
        env.put("QUIVER_INVOCATION_ID", context.invocationId());
        if (context.caller() != null && context.caller().tenant() != null) {
            env.put("QUIVER_TENANT", context.caller().tenant());
        }
        if (context.caller() != null && context.caller().project() != null) {
            env.put("QUIVER_PROJECT", context.caller().project());
        }
        env.put("QUIVER_CLIENT_ELICITATION", Boolean.toString(context.client() != null
                && context.client().supports("elicitation")));
    }

    /** The answers as {@code {"key": {"action": "accept", "content": {...}}}}. */
    static String answers(Map<String, InputResponse> answers) {
        ObjectNode out = CommandSpec.JSON.createObjectNode();
        answers.forEach((key, answer) -> {
            if (answer instanceof InputResponse.Elicited e) {
                ObjectNode a = out.putObject(key).put("action", e.action());
                a.set("content", CommandSpec.JSON.valueToTree(e.content()));
            } else {
                out.set(key, CommandSpec.JSON.valueToTree(answer));
            }
        });
        return CommandSpec.JSON.writeValueAsString(out);
    }

    /** Where stderr lines go, as configured. */
    private CommandRun.Lines lines(RequestContext context) {
        return switch (spec.stderr()) {
            case "none" -> null;
            case "log" -> (n, text) -> context.log(LogLevel.INFO, spec.name(), text);
            case "both" -> (n, text) -> {
                context.progress(n, null, text);
                context.log(LogLevel.INFO, spec.name(), text);
            };
            default -> (n, text) -> context.progress(n, null, text);
        };
    }

    Outcome outcome(CommandRun.Result r) {
        String stdout = CommandRun.text(r.stdout(), r.cut());
        switch (r.ending()) {
            case TIMED_OUT -> {
                return Outcome.done(ToolResult.error(hinted("The command timed out after " + spec.timeoutMs()
                        + " ms and was stopped, with the processes it started." + partial(stdout, r) + stderr(r))));
            }
            case CANCELLED -> {
                return Outcome.done(ToolResult.error("The command was cancelled and stopped, with the processes it"
                        + " started."));
            }
            default -> {
                // exited
            }
        }
        boolean failed = r.exitCode() != 0;
        if (spec.outcomeEnvelope() && !r.cut() && !r.outputOpen()) {
            Outcome stated = OutcomeEnvelope.read(stdout, failed, "The command");
            if (stated instanceof Outcome.NeedsInput && failed) {
                return Outcome.done(ToolResult.error(hinted("The command asked for input but exited with status "
                        + r.exitCode() + "; it was not asked." + stderr(r))));
            }
            if (stated instanceof Outcome.NeedsInput asks && !spec.answersOnStdin()) {
                String secret = asks.requests().stream()
                        .filter(q -> q instanceof InputRequest.Elicitation e && e.sensitive())
                        .map(InputRequest::key).findFirst().orElse(null);
                if (secret != null) {
                    LOG.warn("Command tool {} ({}): the command asked for a sensitive answer ('{}'), which would be put in"
                            + " its environment (answersVia = env), where other processes of the same user can read it;"
                            + " the user was not asked. Set answersVia = stdin and have the command read its answers"
                            + " from stdin.", spec.name(), spec.source(), secret);
                    return Outcome.done(ToolResult.error(hinted("The command asked for a secret (request '" + secret
                            + "'), but this tool passes answers in its environment, which other processes of the same"
                            + " user can read; the user was not asked. The tool's configuration needs answersVia = stdin.")));
                }
            }
            if (stated != null) {
                return stated;
            }
        }
        StringBuilder text = new StringBuilder();
        if (failed) {
            text.append("The command exited with status ").append(r.exitCode()).append('.');
            if (!stdout.isEmpty()) {
                text.append(" Its output:\n").append(stdout);
            }
            text.append(notes(r)).append(stderr(r));
            return Outcome.done(ToolResult.error(hinted(text.toString())));
        }
        if (stdout.isEmpty()) {
            text.append("The command finished and printed nothing.");
            if (!r.stderrTail().isEmpty()) {
                text.append(stderr(r));
            }
        } else {
            text.append(stdout);
        }
        text.append(notes(r));
        return Outcome.text(text.toString());
    }

    /** What was cut or left open. */
    private String notes(CommandRun.Result r) {
        StringBuilder b = new StringBuilder();
        if (r.cut()) {
            b.append("\n[output cut: the command wrote ").append(r.stdoutBytes()).append(" bytes; the first ")
                    .append(r.stdout().length).append(" are shown (maxOutputBytes)]");
        }
        if (r.outputOpen()) {
            b.append("\n[a process the command left running still held its output open; Quiver stopped reading it ")
                    .append(CommandRun.DRAIN_MS).append(" ms after the command ended]");
        }
        return b.toString();
    }

    private String partial(String stdout, CommandRun.Result r) {
        return stdout.isEmpty() ? "" : " Its output until then:\n" + stdout + notes(r);
    }

    private static String stderr(CommandRun.Result r) {
        return r.stderrTail().isEmpty() ? "" : "\nThe last lines of its stderr:\n" + String.join("\n", r.stderrTail());
    }

    private String hinted(String error) {
        return spec.troubleshootingHint().isBlank() ? error : error + "\n" + spec.troubleshootingHint();
    }
}
