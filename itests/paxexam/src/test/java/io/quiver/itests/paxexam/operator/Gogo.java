package io.quiver.itests.paxexam.operator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.osgi.framework.BundleContext;
import org.osgi.util.tracker.ServiceTracker;

/**
 * Runs Gogo commands the way an embedding application or a console does: through the
 * {@link CommandProcessor} service, in a session with in-memory streams. Waits (bounded) for the
 * processor and for the {@code quiver:*} commands to be registered.
 */
public final class Gogo {

    private Gogo() {
    }

    /**
     * Runs one command line and returns what it printed followed by its result (the quiver
     * commands return their text).
     */
    public static String run(BundleContext context, String commandLine, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        ServiceTracker<CommandProcessor, CommandProcessor> tracker = new ServiceTracker<>(context, CommandProcessor.class, null);
        tracker.open();
        try {
            CommandProcessor processor = tracker.waitForService(Math.max(1, timeout.toMillis()));
            if (processor == null) {
                throw new AssertionError("No Gogo CommandProcessor service within " + timeout.toMillis() + " ms");
            }
            while (true) {
                try {
                    return execute(processor, commandLine);
                } catch (Exception e) {
                    // the quiver commands register a little after the runtime; anything else is real
                    if (!e.getClass().getName().endsWith("CommandNotFoundException") || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(25);
                }
            }
        } finally {
            tracker.close();
        }
    }

    private static String execute(CommandProcessor processor, String commandLine) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandSession session = processor.createSession(new ByteArrayInputStream(new byte[0]), out, err);
        try {
            Object result = session.execute(commandLine);
            session.getConsole().flush();
            return out.toString(StandardCharsets.UTF_8) + (result == null ? "" : String.valueOf(result));
        } finally {
            session.close();
        }
    }

    /** The line of a table that contains {@code text}, or null. */
    public static String lineWith(String output, String text) {
        for (String line : output.split("\\R")) {
            if (line.contains(text)) {
                return line;
            }
        }
        return null;
    }
}
