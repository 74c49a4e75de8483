package io.quiver.tools.command.internal;

import io.quiver.lib.config.Max;
import io.quiver.lib.config.Min;
import io.quiver.lib.config.OneOf;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * One local command tool (factory PID {@code io.quiver.tools.command}, a file
 * {@code etc/io.quiver.tools.command-NAME.cfg} per tool), the single source of the defaults. See
 * {@code docs/tools-command.md}.
 */
@ObjectClassDefinition(name = "Quiver local command tool",
        description = "One tool that runs a local command, without a shell unless configured, bounded in time and"
                + " output (a file etc/io.quiver.tools.command-NAME.cfg per tool)")
public @interface CommandConfig {

    /** The factory PID. */
    String PID = "io.quiver.tools.command";

    @AttributeDefinition(name = "Tool name", description = "What clients call the tool by (A-Z a-z 0-9 _ . -, at most"
            + " 128); default: the NAME of io.quiver.tools.command-NAME.cfg")
    String name() default "";

    @AttributeDefinition(name = "Enabled", description = "List the tool (false: declared but not offered)")
    boolean enabled() default true;

    @AttributeDefinition(name = "Title", description = "A human-readable name for user interfaces")
    String title() default "";

    @AttributeDefinition(name = "Description", description = "What the tool does, for the model: when to use it and"
            + " what it returns")
    String description() default "";

    @AttributeDefinition(name = "Input schema", description = "The arguments as a JSON Schema object (JSON text);"
            + " empty: one required string property per {name} placeholder (an array of strings per {name*}, optional"
            + " for {name?}), nothing else allowed")
    String inputSchema() default "";

    @AttributeDefinition(name = "Output schema", description = "The structuredContent of the command's done envelope"
            + " as a JSON Schema object (JSON text); empty for none")
    String outputSchema() default "";

    @AttributeDefinition(name = "Command line", description = "The program and its arguments, one argv element each,"
            + " with placeholders {name}, {name?} (left out when absent), {name*} (one element per array item); {{ and"
            + " }} for literal braces. Comma-separated, or a JSON array of strings. With shell = true: the script's"
            + " positional parameters $1, $2, ...")
    String[] argv() default {};

    @AttributeDefinition(name = "Option arguments", description = "Arguments whose values may begin an argv element"
            + " with '-' (the command may read them as options); any other such value is refused unless it comes"
            + " after a literal -- element")
    String[] optionArguments() default {};

    @AttributeDefinition(name = "Shell", description = "Run script with shellPath -c; the arguments reach it as"
            + " positional parameters (argv) and environment variables, never inside the script text")
    boolean shell() default false;

    @AttributeDefinition(name = "Script", description = "The shell script (with shell = true), used as written")
    String script() default "";

    @AttributeDefinition(name = "Shell path", description = "The shell that runs script")
    String shellPath() default "/bin/sh";

    @AttributeDefinition(name = "Working directory", description = "Where the command runs (relative: to Quiver's"
            + " working directory); empty: Quiver's working directory")
    String workingDirectory() default "";

    @AttributeDefinition(name = "Inherited environment", description = "Globs of the variables of Quiver's environment"
            + " the command gets; no other variable of Quiver's reaches it")
    String[] inheritEnv() default {"PATH", "HOME", "LANG", "LC_*", "TZ", "TMPDIR", "USER", "LOGNAME"};

    @AttributeDefinition(name = "Environment", description = "NAME=value variables the command gets besides;"
            + " comma-separated, or a JSON array of strings")
    String[] env() default {};

    @AttributeDefinition(name = "Timeout", description = "How long one run may take (ms); then it is stopped with"
            + " every process it started")
    @Min(100)
    long timeoutMs() default 30_000;

    @AttributeDefinition(name = "Output limit", description = "The most of the command's stdout kept (bytes); the"
            + " rest is read and discarded, and the result says it was cut")
    @Min(1024)
    @Max(64 << 20)
    long maxOutputBytes() default 256 * 1024;

    @AttributeDefinition(name = "Standard error", description = "Where the command's stderr lines go while it runs:"
            + " progress notifications, log messages, both or none")
    @OneOf({"progress", "log", "both", "none"})
    String stderr() default "progress";

    @AttributeDefinition(name = "Outcome envelope", description = "Read a stdout that is Quiver's Outcome envelope as"
            + " the outcome it states (done, error, needs_input); false for commands that print what others wrote")
    boolean outcomeEnvelope() default true;

    @AttributeDefinition(name = "Answers via", description = "How a run gets the answers gathered so far (a JSON"
            + " object by request key): env, in the variable QUIVER_ANSWERS, which other processes of the same user"
            + " can read, so a command that asks for a sensitive answer is refused and its user not asked; or stdin,"
            + " as one line of JSON followed by the end of input, sensitive answers included, and QUIVER_ANSWERS is"
            + " not set")
    @OneOf({"env", "stdin"})
    String answersVia() default "env";

    @AttributeDefinition(name = "Read-only hint", description = "The command changes nothing")
    boolean readOnlyHint() default false;

    @AttributeDefinition(name = "Destructive hint", description = "The command may delete or overwrite")
    boolean destructiveHint() default true;

    @AttributeDefinition(name = "Idempotent hint", description = "Running it again with the same arguments has no"
            + " further effect")
    boolean idempotentHint() default false;

    @AttributeDefinition(name = "Open-world hint", description = "The command reaches outside systems")
    boolean openWorldHint() default true;

    @AttributeDefinition(name = "Troubleshooting hint", description = "What a user or model can do when the command"
            + " fails; added to the error of a failed or timed-out call")
    String troubleshootingHint() default "";

    @AttributeDefinition(name = "Tenants", description = "The tenants whose callers see the tool (empty: every tenant)")
    String[] tenants() default {};

    @AttributeDefinition(name = "Projects", description = "The projects whose callers see the tool (empty: every"
            + " project)")
    String[] projects() default {};
}
