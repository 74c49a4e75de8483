package io.quiver.examples.host;

import io.quiver.launcher.HostRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The console: one thread that takes the host's requests and the typed lines in the order they come,
 * and asks one question at a time. {@link #enqueue} is the {@link io.quiver.launcher.Host}: it only
 * queues (it runs on the call's thread, which must not wait for a person).
 *
 * <ul>
 * <li>ADMIT: one prompt line, {@code [#N] CLIENT calls TOOL ARGUMENTS -- approve? [y/n]}; {@code y} approves,
 * {@code n} denies ("denied at the console"), anything else asks again.</li>
 * <li>INPUT (a tool's question): its message and fields; a line of {@code field=value} pairs or a JSON
 * object answers, an empty line declines. The answer is never printed.</li>
 * <li>RELEASE and REVIEW: released and delivered at once, even while a prompt waits.</li>
 * <li>RECORD: one JSON line in the record file, then {@code recorded}; {@code recordingFailed} if it
 * cannot be written (the caller then gets an error, never an unrecorded result).</li>
 * <li>OVER: the call ended; a prompt still waiting for it is withdrawn, and a call whose result was not
 * delivered as recorded (denied, stopped, cancelled, a recording that failed) gets its line in the record file:
 * how it ended and why.</li>
 * </ul>
 *
 * Calls are numbered {@code #1, #2, ...} in the order the console hears of them; every line about a
 * call starts with its number. {@code quit} (at any time) or the end of the input ends {@link #run}.
 *
 * <p>An answer is taken for the question shown only if it was typed for that question: a line read less than
 * the settle time after the question appeared is not taken (the person may have been answering the question
 * before it, withdrawn a moment earlier when its caller cancelled, or typed ahead), unless it starts with the
 * call's number ({@code #2 y}, {@code #2 name=Ada}; {@code #2} alone is an empty answer). A numbered answer
 * that names another call is not taken either. So no caller can move its call under an answer meant for another
 * by cancelling at the right moment, and a secret typed for one tool never reaches the next.
 */
final class Console {

    static final String DENIED = "denied at the console";
    /** How long after a question appears an answer without the call's number is taken (by default). */
    static final long SETTLE_MS = 1_000;
    private static final int SHOWN = 200;
    /** An answer that names its call: {@code #N}, then the answer after a space (or nothing: an empty one). */
    private static final Pattern NUMBERED = Pattern.compile("\\s*#(\\d{1,9})(?:\\s(.*))?");

    private sealed interface Event permits Request, Line, End {
    }

    private record Request(HostRequest request) implements Event {
    }

    /** A typed line, and when the reader thread read it ({@link System#nanoTime()}). */
    private record Line(String text, long readAt) implements Event {
    }

    private record End() implements Event {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final InputStream input;
    private final PrintStream out;
    private final CallRecords records;
    private final long settleNanos;

    // the console thread's alone
    private final Deque<HostRequest> waiting = new ArrayDeque<>();
    private final Map<String, Integer> numbers = new HashMap<>();
    /** The calls whose recorded result is delivered (their RECORD's reply was accepted), until they are over. */
    private final Set<String> recorded = new HashSet<>();
    private int calls;
    private HostRequest asking;
    /** When the question shown appeared ({@link System#nanoTime()}). */
    private long shownAt;

    /** {@code settleMs}: how long after a question appears an answer without the call's number is taken. */
    Console(InputStream input, PrintStream out, CallRecords records, long settleMs) {
        this.input = input;
        this.out = out;
        this.records = records;
        this.settleNanos = TimeUnit.MILLISECONDS.toNanos(settleMs);
    }

    /** The host: called on the call's thread; queues the request for the console thread. */
    void enqueue(HostRequest request) {
        events.add(new Request(request));
    }

    /** Runs the console on this thread until {@code quit} or the end of the input. */
    void run() throws InterruptedException {
        Thread reader = new Thread(this::read, "console-input");
        reader.setDaemon(true);
        reader.start();
        while (true) {
            Event event = events.take();
            try {
                if (event instanceof Request r) {
                    take(r.request());
                } else if (event instanceof Line line) {
                    if (line.text().strip().equalsIgnoreCase("quit")) {
                        return;
                    }
                    answer(line);
                } else {
                    return; // the end of the input
                }
            } catch (RuntimeException e) {
                // a reply the container could not take at all (its host bridge stopped under us): the
                // console goes on; a question whose answer failed cannot be answered any more
                System.err.println("console-host: " + e);
                if (event instanceof Line) {
                    asking = null;
                }
            }
            if (asking == null && !waiting.isEmpty()) {
                asking = waiting.poll();
                prompt();
            }
        }
    }

    private void read() {
        Charset charset = System.console() != null ? System.console().charset() : Charset.defaultCharset();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(input, charset))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                events.add(new Line(line, System.nanoTime()));
            }
        } catch (IOException e) {
            System.err.println("console-host: reading the console failed: " + e);
        }
        events.add(new End());
    }

    private void take(HostRequest request) {
        int n = numbers.computeIfAbsent(request.invocationId(), id -> ++calls);
        switch (request.kind()) {
            case ADMIT, INPUT -> {
                waiting.add(request);
                if (asking != null) {
                    say(n, request.tool() + " waits for its turn");
                }
            }
            case RELEASE -> check(n, request, request.release());
            case REVIEW -> check(n, request, request.deliver());
            case RECORD -> record(n, request);
            case OVER -> over(n, request);
        }
    }

    private void record(int n, HostRequest request) {
        try {
            records.append(request);
        } catch (IOException | RuntimeException e) {
            String why = "writing the record failed (" + e.getMessage() + ")";
            say(n, request.tool() + "'s result is withheld: " + why);
            check(n, request, request.recordingFailed(why));
            return;
        }
        if (check(n, request, request.recorded())) {
            recorded.add(request.invocationId()); // delivered as recorded (unless the call is stopped at once: OVER says)
            boolean failed = Boolean.TRUE.equals(request.result().get("isError"));
            say(n, request.tool() + (failed ? " failed: " : " answered: ") + shorten(request.resultText()) + " (recorded)");
        }
    }

    private void over(int n, HostRequest over) {
        String invocationId = over.invocationId();
        numbers.remove(invocationId);
        waiting.removeIf(r -> r.invocationId().equals(invocationId));
        if (asking != null && asking.invocationId().equals(invocationId)) {
            asking = null;
            say(n, "the call ended before your answer");
        }
        HostRequest.Ending ending = over.ending();
        boolean delivered = recorded.remove(invocationId);
        if (!delivered || ending == HostRequest.Ending.CANCELLED) {
            // no result was delivered (or the call was stopped right after its record): its line says how it ended
            try {
                records.appendEnded(over);
                say(n, over.tool() + " ended " + CallRecords.name(ending)
                        + (over.detail() == null ? "" : ": " + shorten(over.detail())) + " (recorded)");
            } catch (IOException | RuntimeException e) {
                System.err.println("console-host: the end of " + over.tool() + " (#" + n + ") was not recorded: " + e);
            }
        }
    }

    /** Shows the question waiting for an answer; the time to settle begins once it is all shown. */
    private void prompt() {
        int n = numbers.get(asking.invocationId());
        if (asking.kind() == HostRequest.Kind.ADMIT) {
            say(n, who(asking) + " calls " + asking.tool() + " " + CallRecords.JSON.writeValueAsString(asking.arguments())
                    + " -- approve? [y/n]");
            shownAt = System.nanoTime();
            return;
        }
        say(n, asking.tool() + " asks: " + asking.message()
                + (asking.again() ? " (asked again: the last answer did not fit the form)" : ""));
        for (Forms.Field field : Forms.fields(asking.schema())) {
            say(n, "  " + field.describe());
        }
        say(n, "answer with field=value pairs or a JSON object; an empty line declines"
                + (asking.sensitive() ? " (a secret: it is not shown here)" : ""));
        shownAt = System.nanoTime();
    }

    /** A typed line: the answer to the question shown, if any, once it is clear that it was meant for it. */
    private void answer(Line line) {
        if (asking == null) {
            if (!line.text().isBlank()) {
                out.println("Nothing to answer now; type quit to stop.");
                out.flush();
            }
            return;
        }
        HostRequest request = asking;
        int n = numbers.get(request.invocationId());
        String text = line.text();
        Matcher numbered = NUMBERED.matcher(text);
        if (numbered.matches()) {
            int named = Integer.parseInt(numbered.group(1));
            if (named != n) { // never echoed: it may be a secret
                say(n, "not taken: that answer names #" + named + ", and the question shown is #" + n + "'s");
                prompt();
                return;
            }
            text = numbered.group(2) == null ? "" : numbered.group(2);
        } else if (line.readAt() - shownAt < settleNanos) {
            say(n, "not taken: typed within " + TimeUnit.NANOSECONDS.toMillis(settleNanos) + " ms of this question,"
                    + " it may have been meant for another; answer again, or start the answer with #" + n);
            prompt();
            return;
        }
        if (request.kind() == HostRequest.Kind.ADMIT) {
            switch (text.strip().toLowerCase(Locale.ROOT)) {
                case "y", "yes" -> done(n, request.approve(), "approved");
                case "n", "no" -> done(n, request.deny(DENIED), "denied");
                default -> prompt();
            }
            return;
        }
        if (text.isBlank()) {
            done(n, request.decline(), "declined");
            return;
        }
        Map<String, Object> content;
        try {
            content = Forms.parse(text, request.schema());
        } catch (IllegalArgumentException e) {
            say(n, e.getMessage());
            prompt();
            return;
        }
        HostRequest.Reply reply = request.answer(content);
        if (reply.status() == HostRequest.Status.INVALID) { // the question stays open for a better answer
            say(n, "not taken: " + reply.problem());
            prompt();
            return;
        }
        done(n, reply, "answered");
    }

    /** The question shown is settled (answered, or its call is over). */
    private void done(int n, HostRequest.Reply reply, String what) {
        asking = null;
        say(n, reply.accepted() ? what : "too late: the call is over (" + reply.status().name().toLowerCase(Locale.ROOT) + ")");
    }

    /** Whether an automatic reply was taken; one that was not is worth a line on stderr, unless the call just ended. */
    private static boolean check(int n, HostRequest request, HostRequest.Reply reply) {
        if (!reply.accepted() && reply.status() != HostRequest.Status.STALE) {
            System.err.println("console-host: #" + n + " " + request.kind() + ": the reply was " + reply.status()
                    + (reply.problem() == null ? "" : " (" + reply.problem() + ")"));
        }
        return reply.accepted();
    }

    private static String who(HostRequest request) {
        Object name = request.client().get("name");
        Object version = request.client().get("version");
        String client = name == null ? "a client without a name" : version == null ? name.toString() : name + " " + version;
        return Boolean.TRUE.equals(request.caller().get("authenticated")) ? client + " (" + request.subject() + ")" : client;
    }

    private void say(int n, String text) {
        out.println("[#" + n + "] " + clean(text));
        out.flush();
    }

    private static String shorten(String text) {
        String line = text.replaceAll("\\R", " ");
        return line.length() <= SHOWN ? line : line.substring(0, SHOWN) + "...";
    }

    /**
     * Text from clients and tools without control characters: a client's name or a tool's message
     * must not move the cursor, clear the screen or start a line that looks like a prompt.
     */
    static String clean(String text) {
        StringBuilder clean = new StringBuilder(text.length());
        text.codePoints().forEach(c -> clean.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return clean.toString();
    }
}
