package io.quiver.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code java -jar quiver.jar run [options]}: starts Quiver, prints exactly one line to stdout
 * ({@code Quiver MCP endpoint: <url>}) once the endpoint answers, and runs until SIGINT/SIGTERM.
 * Everything else goes to stderr. With {@code --stdio} stdout belongs to the protocol: the launcher
 * writes nothing there (the endpoint line, when HTTP runs too, goes to stderr), and the server also
 * stops when stdin ends. Exit status: 0 after a normal stop, 1 when the start failed,
 * 2 for a wrong command line. {@code quiver.jar apikey create ...} prints a new API key and its
 * configuration instead ({@link ApiKeyCommand}).
 */
public final class Main {

    /** How long after the start the one collection runs: past the first requests of a client waiting for it. */
    private static final long SETTLE_DELAY_MS = 1_000;

    private Main() {
    }

    public static void main(String[] args) {
        long launcherStart = System.nanoTime();
        PrintStream stdout = System.out;
        CommandLine.Command command;
        try {
            command = CommandLine.parse(args);
        } catch (CommandLine.UsageException e) {
            System.err.println("quiver: " + e.getMessage());
            System.err.println("Try 'quiver help'.");
            System.exit(2);
            return;
        }
        if (command instanceof CommandLine.Help) {
            stdout.print(CommandLine.usage());
            stdout.flush();
            return;
        }
        if (command instanceof CommandLine.CreateApiKey create) {
            // no framework: the key and its configuration on stdout, errors on stderr
            System.exit(ApiKeyCommand.create(create, stdout, System.err));
            return;
        }
        // stdout carries the endpoint line only (with --stdio: the protocol only, which the stdio transport
        // writes to the file descriptor itself); a bundle that prints goes to stderr
        System.setOut(System.err);
        configureLogging();
        LaunchSettings settings = ((CommandLine.Run) command).settings();
        System.exit(run(settings, settings.stdio() ? System.err : stdout, launcherStart));
    }

    /**
     * The orderly stop a signal asks for. A framework that it left running (a bundle that never finishes stopping,
     * past the stop timeout; a stop that failed) would keep the process, and its port, until a second signal: the
     * process ends anyway, with status 1.
     */
    static void stopOrHalt(Quiver quiver) {
        boolean failed;
        try {
            quiver.stop();
            failed = quiver.stopFailed();
        } catch (RuntimeException | Error e) {
            System.err.println("quiver: the stop failed: " + e);
            failed = true;
        }
        if (failed) {
            System.err.println("quiver: the framework did not stop within " + quiver.stopTimeout().toSeconds()
                    + " s (a bundle that does not finish stopping, or the stop failed; see the log): halting");
            System.err.flush();
            Halt.now(1);
        }
    }

    /** @param endpointOut where the endpoint line goes: stdout, or stderr when stdout is the protocol's */
    private static int run(LaunchSettings settings, PrintStream endpointOut, long launcherStart) {
        Quiver quiver = Quiver.builder().settings(settings).build();
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(quiver::stop, "quiver-shutdown"));
        } catch (IllegalStateException e) {
            // a signal came before the launcher could take it over and the JVM is shutting down already:
            // nothing has started, and the JVM ends the process with its own status (143 for SIGTERM)
            return 143;
        }
        Signals.install(() -> stopOrHalt(quiver));
        try {
            quiver.start();
        } catch (QuiverException e) {
            if (Quiver.STOPPED_WHILE_STARTING.equals(e.getMessage())) { // a signal during the start: stopped as asked
                System.err.println("quiver: " + Quiver.STOPPED_WHILE_STARTING);
                return 0;
            }
            System.err.println("quiver: cannot start: " + e.getMessage());
            return 1;
        }
        boolean endpoint = hasEndpoint(quiver);
        if (quiver.settings().awaitEndpoint() && endpoint) {
            endpointOut.println("Quiver MCP endpoint: " + quiver.url());
            endpointOut.flush();
        } else if (!endpoint && !quiver.settings().features().contains("stdio")) {
            System.err.println("quiver: no transport runs (the features name neither http nor stdio): no client can"
                    + " reach this server");
        }
        System.err.println("Quiver started in " + sinceProcessStart(launcherStart) + " ms"
                + (quiver.problems().isEmpty() ? "" : " with " + quiver.problems().size() + " bundle problem(s)"));
        markClassData();
        settleLater();
        try {
            quiver.awaitStop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        quiver.stop();
        return 0;
    }

    /** The system property naming the file that says this run got through its start (set by the quiver script). */
    static final String CLASS_DATA_MARKER = "quiver.classDataMarker";

    /**
     * Tells the {@code quiver} script that the class data archive this run writes at its exit is a whole
     * one: the script drops an archive whose run never got here (a failed start), since it would lack the
     * classes of serving.
     */
    static void markClassData() {
        String marker = System.getProperty(CLASS_DATA_MARKER);
        if (marker == null || marker.isBlank()) {
            return;
        }
        try {
            Files.write(Path.of(marker), new byte[0]);
        } catch (IOException | RuntimeException e) {
            // the archive is then written again by the next run: slower once, never wrong
        }
    }

    /**
     * The start leaves its garbage (class loading, parsing, the bundles' set-up) in the old generation,
     * which a quiet server may never collect: one full collection a second after the start gives that
     * memory back to the system (~12 MiB of resident memory with the default features; docs/BENCHMARKS.md).
     * Not for an embedding application's JVM, whose collections are its own. -XX:+DisableExplicitGC
     * turns it off.
     */
    private static void settleLater() {
        Thread settle = new Thread(() -> {
            try {
                Thread.sleep(SETTLE_DELAY_MS);
                System.gc();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "quiver-settle");
        settle.setDaemon(true);
        settle.start();
    }

    private static boolean hasEndpoint(Quiver quiver) {
        try {
            quiver.url();
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** Milliseconds since the process started (since {@code main} where the OS does not say). */
    private static long sinceProcessStart(long launcherStart) {
        return ProcessAge.millis().orElse((System.nanoTime() - launcherStart) / 1_000_000L);
    }

    /** slf4j-simple defaults for the command line, and its provider; -D on the java command line wins. */
    private static void configureLogging() {
        setDefault("org.slf4j.simpleLogger.logFile", "System.err");
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", "info");
        setDefault("org.slf4j.simpleLogger.showDateTime", "true");
        setDefault("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        setDefault("org.slf4j.simpleLogger.showShortLogName", "true");
        setDefault("org.slf4j.simpleLogger.log.org.eclipse.jetty", "warn");
        // slf4j-simple, through the provider that notes a Jetty that does not start (the start ends at once)
        setDefault("slf4j.provider", StartLog.class.getName());
        setDefault("slf4j.internal.verbosity", "WARN"); // not "SLF4J(I): Attempting to load provider ..." at each start
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
