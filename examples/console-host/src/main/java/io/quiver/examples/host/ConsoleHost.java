package io.quiver.examples.host;

import io.quiver.launcher.HostTool;
import io.quiver.launcher.Quiver;
import io.quiver.launcher.QuiverException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * An example host application: it embeds Quiver, adds one tool of its own ({@code note_add}) and, as the
 * {@link io.quiver.launcher.Host}, asks at the console before any tool call runs, whoever the caller
 * (Claude Code, any MCP client). Every call is recorded as one JSON line (its result, or how it ended).
 *
 * <pre>
 * java -cp launcher/target/quiver.jar:examples/console-host/target/console-host.jar \
 *      io.quiver.examples.host.ConsoleHost --home /tmp/demo
 * </pre>
 *
 * stdout is the console (the endpoint, the prompts, what became of each call); Quiver's log goes to
 * stderr (slf4j-simple, warnings and errors unless {@code -Dorg.slf4j.simpleLogger.defaultLogLevel=info}).
 * {@code quit} or the end of stdin stops the container and exits 0.
 */
public final class ConsoleHost {

    static final String NOTE_TOOL = "note_add";
    static final String NOTE_SCHEMA = "{\"type\":\"object\","
            + "\"properties\":{\"text\":{\"type\":\"string\",\"minLength\":1,\"description\":\"The note, one line\"}},"
            + "\"required\":[\"text\"],\"additionalProperties\":false}";

    private ConsoleHost() {
    }

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("console-host: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(Options.USAGE);
            return;
        }
        // before the first logger exists: Quiver's log to stderr, so that stdout is the console's alone
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");

        Path home = options.home();
        Path notes = home.resolve("notes.txt");
        CallRecords records;
        try {
            Files.createDirectories(home);
            records = CallRecords.open(options.record());
        } catch (IOException e) {
            System.err.println("console-host: " + e);
            System.exit(1);
            return;
        }
        PrintStream out = System.out;
        Console console = new Console(System.in, out, records, options.settleMs());
        Quiver quiver;
        try {
            quiver = Quiver.builder()           // the builder's default features: core, http, tools-default
                    .port(options.port())       // 0: the OS picks a free port on 127.0.0.1
                    .etc(home.resolve("etc"))
                    .deploy(home.resolve("deploy"))
                    .data(home.resolve("data"))
                    // the records and the notes: no file tool reaches them, though the home is under the working directory
                    .privateFolder(home)
                    .tool(NOTE_TOOL, "Adds a note (one line of text) to the user's notes file", NOTE_SCHEMA,
                            arguments -> addNote(notes, arguments))
                    .host(console::enqueue)     // only queues: the console thread replies
                    .start();
        } catch (QuiverException e) {
            System.err.println("console-host: Quiver did not start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(quiver::stop, "console-host-stop")); // Ctrl-C
        quiver.problems().forEach(p -> System.err.println("console-host: " + p));

        out.println("Quiver MCP endpoint: " + quiver.url());
        out.println("Connect Claude Code: claude mcp add --transport http quiver " + quiver.url());
        out.println("Every tool call waits for your answer here. Calls are recorded in " + records.file()
                + "; note_add writes to " + notes + ".");
        out.println("Type quit (or end the input) to stop.");
        out.flush();

        console.run(); // until quit or the end of stdin
        out.println("Stopping ...");
        out.flush();
        quiver.stop(); // calls still waiting for an answer end with an error first
        out.println("Stopped.");
        out.flush();
        System.exit(0);
    }

    /** The host's own tool: an observable side effect, one line in HOME/notes.txt per call. */
    static synchronized String addNote(Path notes, Map<String, Object> arguments) throws Exception {
        String text = String.valueOf(arguments.get("text")).replaceAll("\\R", " ").strip();
        if (text.isEmpty()) {
            throw new HostTool.Failure("a note needs some text");
        }
        Files.writeString(notes, text + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        return "noted";
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** The command line. */
    record Options(Path home, Path record, int port, long settleMs, boolean help) {

        static final String USAGE = String.join("\n",
                "Usage: java -cp launcher/target/quiver.jar:examples/console-host/target/console-host.jar \\",
                "           io.quiver.examples.host.ConsoleHost [--home DIR] [--record FILE] [--port N] [--settle-ms MS]",
                "  --home DIR     the host's folder: etc/, deploy/, data/ and notes.txt (default ./console-host-home)",
                "  --record FILE  where every call is recorded, one JSON line each (default HOME/calls.jsonl)",
                "  --port N       the MCP endpoint's port on 127.0.0.1 (default 0: the OS picks a free one)",
                "  --settle-ms MS an answer typed sooner after its question is not taken unless it starts with",
                "                 the call's number, #N (default " + Console.SETTLE_MS + "; 0-60000)");

        static Options parse(String... args) {
            Path home = Path.of("console-host-home");
            Path record = null;
            int port = 0;
            long settleMs = Console.SETTLE_MS;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--help", "-h" -> {
                        return new Options(home, home.resolve("calls.jsonl"), port, settleMs, true);
                    }
                    case "--home" -> home = Path.of(value(args, ++i, arg));
                    case "--record" -> record = Path.of(value(args, ++i, arg));
                    case "--port" -> {
                        String text = value(args, ++i, arg);
                        try {
                            port = Integer.parseInt(text);
                        } catch (NumberFormatException e) {
                            port = -1;
                        }
                        if (port < 0 || port > 65535) {
                            throw new IllegalArgumentException("--port takes a port number (0-65535), not " + text);
                        }
                    }
                    case "--settle-ms" -> {
                        String text = value(args, ++i, arg);
                        try {
                            settleMs = Long.parseLong(text);
                        } catch (NumberFormatException e) {
                            settleMs = -1;
                        }
                        if (settleMs < 0 || settleMs > 60_000) {
                            throw new IllegalArgumentException("--settle-ms takes milliseconds (0-60000), not " + text);
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + arg);
                }
            }
            home = home.toAbsolutePath().normalize();
            return new Options(home, record == null ? home.resolve("calls.jsonl") : record.toAbsolutePath().normalize(),
                    port, settleMs, false);
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length || args[i].startsWith("--")) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
