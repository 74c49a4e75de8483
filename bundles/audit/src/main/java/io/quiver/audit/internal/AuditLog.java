package io.quiver.audit.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallListener;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.event.Event;
import org.osgi.service.event.EventAdmin;
import org.osgi.service.event.EventConstants;
import org.osgi.service.event.EventHandler;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit trail: every tool call, as the engine tells its {@link CallListener}s, becomes one JSON line
 * in the audit file ({@link AuditFile}) and, while an event handler listens to {@value #TOPIC}, one Event
 * Admin event for other bundles.
 *
 * <p>The engine calls listeners on the call's own thread, so this one only queues the event: one writer
 * thread of its own does the file and the events, in batches (it lets calls gather for
 * {@value #PACE_MS} ms rather than be woken by each). The queue is bounded, so a stuck disk cannot grow the
 * heap; when it is full the event is dropped and counted, a warning is logged (at most once a minute),
 * and once the writer catches up it writes a line saying how many were lost, so the gap is on record.
 *
 * <p>When the file cannot be written, the problem (the file and why) is listed by {@code quiver:problems}
 * until a line goes through again.
 *
 * <p>A call whose tool is still running {@code runningAfterMs} after it began gets a line of its own (ending
 * {@code RUNNING}, the time it had run so far) before its end's: the engine tells this listener of every call
 * about to run ({@link #running}), which only notes it in a map that its end takes it out of again, and the
 * writer looks at the map while calls are in it. A server killed mid-call leaves the running line on record.
 * Those lines are the file's alone (no Event Admin event).
 */
@Component(service = {CallListener.class, ProblemSource.class}, configurationPid = AuditConfig.PID, immediate = true)
@Designate(ocd = AuditConfig.class)
public final class AuditLog implements CallListener, ProblemSource {

    /** The topic of a call's event. */
    static final String TOPIC = "io/quiver/audit/CALL";
    /** The topic of the event saying call events were dropped (property {@code dropped}: how many). */
    static final String DROPPED_TOPIC = "io/quiver/audit/DROPPED";

    /** Calls waiting for the writer: an event is well under a KiB, so a few MiB of heap at most. */
    static final int QUEUE_CAPACITY = 8192;
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    /** Not a call: wakes the writer to take up new settings or to stop (so it never polls while idle). */
    private static final CallEvent WAKE = new CallEvent("", CallerIdentity.ANONYMOUS, "", "", Instant.EPOCH,
            Duration.ZERO, List.of(), CallEvent.Ending.COMPLETED, null);

    /** Optional and dynamic: events are posted while an Event Admin is there, the file is written regardless. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventAdmin eventAdmin;

    /**
     * The Event Admin handlers there are, by service id, and whether each hears {@value #TOPIC}: while
     * none does, no event is made (an event per call costs a map, a copy and a task for nobody).
     */
    private final Map<Long, Boolean> handlers = new ConcurrentHashMap<>();

    /** Lines the writer takes from the queue at once, written with one system call. */
    static final int BATCH = 256;
    /** How long the writer lets calls gather after a batch that did not fill (ms): lines reach the file that late. */
    static final long PACE_MS = 20;

    /**
     * The writer's own, built on its thread when it starts: a first mapper costs ~50 ms of class loading
     * and set-up, which would otherwise lengthen the activation, and with it the server's start.
     */
    private ObjectMapper json;
    /** The writer's batch buffer. */
    private final Lines lines = new Lines();
    private final Clock clock;
    private final BlockingQueue<CallEvent> queue;
    private final int capacity;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong lastWarning;
    private final AuditFile file;
    private final Thread writer;
    private volatile AuditConfig config;
    private volatile List<Problem> configProblems = List.of();
    /** Set and cleared by the writer: why the file cannot be written now. */
    private volatile Problem fileProblem;
    /** Set and cleared by the writer: the configured file is no path (it writes on to the last good one). */
    private volatile Problem pathProblem;
    /** Lines not written because the file could not be (the writer's own count). */
    private long lost;
    private volatile boolean closing;
    /** The calls whose tools run now, by invocation id, until their end is heard or their running line written. */
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    /** Set by the writer while it waits for a call with no call in flight: a call about to run wakes it. */
    private volatile boolean idle;

    /** How often the writer looks at the calls in flight while there are some (ms). */
    static final long RUNNING_CHECK_MS = 50;

    /**
     * {@code runningAfterMs} in nanoseconds, -1 when no running line is written (off, or the trail disabled): read on
     * every call's thread, so kept here rather than asked of the settings' proxy each time.
     */
    private volatile long runningAfterNanos;

    /** A call whose tool runs: when it began and when its running line is due ({@link System#nanoTime()}). */
    private record InFlight(CallEvent event, long began, long due) {
    }

    @Activate
    public AuditLog(Map<String, Object> properties) {
        this(properties, Clock.systemUTC(), QUEUE_CAPACITY);
    }

    /** With a clock (the day rotation) and a queue size of its own, for tests. */
    AuditLog(Map<String, Object> properties, Clock clock, int capacity) {
        this.clock = clock;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.capacity = capacity;
        this.lastWarning = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
        this.config = read(properties, null);
        // the defaults until the writer takes up the configured file, and reports it if it is no path
        this.file = new AuditFile(AuditFile.Settings.of(TypedConfig.defaults(AuditConfig.class)), clock);
        this.writer = new Thread(this::write, "quiver-audit");
        writer.setDaemon(true);
        writer.start();
    }

    @Modified
    void modified(Map<String, Object> properties) {
        config = read(properties, config);
        queue.offer(WAKE); // when the queue is full the writer is busy and takes the settings up before its next call
    }

    /** Writes what is queued, then stops. */
    @Deactivate
    void deactivate() throws InterruptedException {
        closing = true;
        // not interrupted: an interrupt during a write would close the file's channel under it
        queue.offer(WAKE);
        writer.join(TimeUnit.SECONDS.toMillis(10));
    }

    @Reference(service = EventHandler.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, updated = "addHandler")
    void addHandler(Map<String, Object> properties) {
        handlers.put(serviceId(properties), hears(properties.get(EventConstants.EVENT_TOPIC), TOPIC));
    }

    void removeHandler(Map<String, Object> properties) {
        handlers.remove(serviceId(properties));
    }

    private static Long serviceId(Map<String, Object> properties) {
        return properties.get("service.id") instanceof Long id ? id : Long.valueOf(-1);
    }

    /** Whether a handler's {@code event.topics} (a string or strings, {@code *} and {@code a/b/*} wildcards) take the topic. */
    static boolean hears(Object topics, String topic) {
        List<Object> each = topics instanceof String[] array ? List.of((Object[]) array)
                : topics instanceof Collection<?> c ? List.copyOf(c) : topics == null ? List.of() : List.of(topics);
        for (Object t : each) {
            String pattern = String.valueOf(t).trim();
            if (pattern.equals("*") || pattern.equals(topic)
                    || pattern.endsWith("/*") && topic.startsWith(pattern.substring(0, pattern.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    /** On the call's thread, as its tool is about to run: notes the call for the writer. Never blocks. */
    @Override
    public void running(CallEvent event) {
        long after = runningAfterNanos;
        if (after < 0) {
            return;
        }
        long now = System.nanoTime();
        long began = now - (event.took() == null ? 0 : event.took().toNanos());
        inFlight.put(event.invocationId(), new InFlight(event, began, began + after));
        if (idle) {
            queue.offer(WAKE); // it waits for the next call with no timeout: this one may run long
        }
    }

    /** On the call's thread: never blocks, never throws. */
    @Override
    public void called(CallEvent event) {
        if (!inFlight.isEmpty()) {
            inFlight.remove(event.invocationId()); // before its line is queued: no running line after the end's
        }
        if (queue.offer(event)) {
            return;
        }
        long count = dropped.incrementAndGet();
        long now = System.nanoTime();
        long last = lastWarning.get();
        if (now - last >= WARN_EVERY_NANOS && lastWarning.compareAndSet(last, now)) {
            LOG.warn("The audit trail cannot keep up: its queue of {} calls is full, {} call events dropped since the"
                    + " last line about it (the audit file will say how many in all)", capacity, count);
        }
    }

    @Override
    public List<Problem> problems() {
        Problem path = pathProblem;
        Problem f = fileProblem;
        if (path == null && f == null) {
            return configProblems;
        }
        List<Problem> all = new ArrayList<>(configProblems);
        Stream.of(path, f).filter(Objects::nonNull).forEach(all::add);
        return List.copyOf(all);
    }

    // ----------------------------------------------------------------- the writer thread

    private void write() {
        json = JsonMapper.builder(AuditEntry.lineFactory()).build();
        try {
            AuditConfig applied = apply(config);
            while (!closing) {
                if (applied != config) {
                    applied = apply(config);
                }
                List<CallEvent> batch = new ArrayList<>();
                try {
                    CallEvent first = next();
                    if (first != null) {
                        batch.add(first);
                    }
                } catch (InterruptedException e) {
                    break;
                }
                queue.drainTo(batch, BATCH - 1);
                if (applied != config) {
                    // settings changed while the writer waited: the calls just taken are written by the new ones (a
                    // call made right after the trail was turned on again goes to the file)
                    applied = apply(config);
                }
                record(batch, applied);
                // after the ends just taken: a call whose end was among them is out of the map already
                record(running(false), applied);
                // calls are dropped only while the queue is full, so the writer is busy and gets here soon after
                reportDropped(applied);
                if (batch.size() < BATCH && !closing) {
                    // let calls gather: a writer that waits in take() is woken by every call, a thread switch
                    // each, which cost a busy server more than writing the line
                    try {
                        Thread.sleep(PACE_MS);
                    } catch (InterruptedException e) {
                        break;
                    }
                }
            }
            if (applied != config) {
                applied = apply(config);
            }
            List<CallEvent> rest = new ArrayList<>();
            queue.drainTo(rest);
            record(rest, applied);
            record(running(true), applied); // the calls still running as the trail stops are on record
            reportDropped(applied);
        } catch (RuntimeException e) {
            LOG.error("The audit trail stopped writing", e);
        } finally {
            file.close();
        }
    }

    /**
     * The next call event, waiting for it: without end while no call is in flight without its running line, else
     * until the next look at them ({@code null} if none came).
     */
    private CallEvent next() throws InterruptedException {
        if (inFlight.isEmpty()) {
            idle = true;
            try {
                if (inFlight.isEmpty()) { // a call that began after the first look saw idle set, and wakes us
                    return queue.take();
                }
            } finally {
                idle = false;
            }
        }
        return queue.poll(RUNNING_CHECK_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * The running lines due now ({@code all}: of every call in flight), as events; their calls leave the map, so each
     * is written once (an end that comes meanwhile finds nothing to take out).
     */
    private List<CallEvent> running(boolean all) {
        if (inFlight.isEmpty()) {
            return List.of();
        }
        long now = System.nanoTime();
        List<CallEvent> due = new ArrayList<>();
        for (Map.Entry<String, InFlight> entry : inFlight.entrySet()) {
            InFlight call = entry.getValue();
            if ((all || now - call.due() >= 0) && inFlight.remove(entry.getKey(), call)) {
                CallEvent e = call.event();
                due.add(new CallEvent(e.invocationId(), e.caller(), e.protocolVersion(), e.tool(), e.started(),
                        Duration.ofNanos(now - call.began()), e.decisions(), CallEvent.Ending.RUNNING, null,
                        e.clientName(), e.argumentsDigest()));
            }
        }
        return due;
    }

    /** Takes up settings: another file, sizes; opens the file at once so that a problem shows before a call. */
    private AuditConfig apply(AuditConfig c) {
        try {
            file.settings(AuditFile.Settings.of(c));
            pathProblem = null;
        } catch (InvalidPathException e) {
            // like any setting that is not valid: the last good one stays, and the operator is told
            pathProblem = new Problem(c.file(), "the audit file is not a path on this system (" + e.getMessage()
                    + "); writing on to " + file.settings().file());
            LOG.warn("{}", pathProblem);
        }
        if (!c.enabled()) {
            file.close();
            fileProblem = null;
            return c;
        }
        try {
            file.open();
            file.prune();
            written();
        } catch (IOException | RuntimeException e) {
            failed(e);
        }
        return c;
    }

    /** Writes the lines of some calls with one write, and posts their events while someone hears them. */
    private void record(List<CallEvent> events, AuditConfig c) {
        lines.reset();
        int count = 0;
        boolean post = eventAdmin != null && handlers.containsValue(Boolean.TRUE);
        JsonGenerator g = null;
        try {
            for (CallEvent event : events) {
                if (event == WAKE) {
                    continue;
                }
                if (c.enabled()) {
                    int before = lines.size();
                    try {
                        if (g == null) {
                            g = json.createGenerator(lines); // one for the batch: straight into it, no map per line
                        }
                        AuditEntry.write(g, event);
                        g.writeRaw('\n');
                        g.flush();
                        count++;
                    } catch (RuntimeException e) {
                        g = null; // it holds half a line: never flushed, a new one for the next line
                        lines.cut(before); // no half line in the file
                        LOG.error("The audit trail could not write the event of call {}", event.invocationId(), e);
                    }
                }
                if (post && event.ending() != CallEvent.Ending.RUNNING) {
                    Map<String, Object> fields;
                    try {
                        fields = AuditEntry.of(event);
                    } catch (RuntimeException e) {
                        LOG.error("The audit trail could not read the event of call {}", event.invocationId(), e);
                        continue;
                    }
                    post(TOPIC, fields);
                }
            }
        } finally {
            if (g != null) {
                g.close();
            }
        }
        if (count > 0) {
            append(lines.bytes(), lines.size(), count);
        }
        lines.trim();
    }

    /** A batch of lines that can drop what a failed line began, kept from batch to batch by the writer. */
    private static final class Lines extends ByteArrayOutputStream {
        /** A full batch of ordinary lines fits. */
        private static final int SIZE = BATCH * 512;

        Lines() {
            super(SIZE);
        }

        void cut(int size) {
            count = size;
        }

        /** The buffer itself, not a copy: valid up to {@link #size()} until the next write. */
        byte[] bytes() {
            return buf;
        }

        /** Lets go of a buffer that long lines grew far past a batch's size. */
        void trim() {
            if (buf.length > 4 * SIZE) {
                buf = new byte[SIZE];
                count = 0;
            }
        }
    }

    private void reportDropped(AuditConfig c) {
        long count = dropped.getAndSet(0);
        if (count == 0) {
            return;
        }
        Map<String, Object> fields = AuditEntry.dropped(clock.instant(), count);
        if (c.enabled()) {
            line(fields);
        }
        post(DROPPED_TOPIC, fields);
    }

    private void line(Map<String, Object> fields) {
        try {
            byte[] text = json.writeValueAsBytes(fields);
            byte[] line = new byte[text.length + 1];
            System.arraycopy(text, 0, line, 0, text.length);
            line[text.length] = '\n';
            append(line, line.length, 1);
        } catch (RuntimeException e) {
            lost++;
            failed(e);
        }
    }

    /** Appends whole lines ({@code count} of them, the first {@code length} bytes of {@code lines}) to the file. */
    private void append(byte[] lines, int length, int count) {
        try {
            file.append(lines, length);
            written();
        } catch (IOException | RuntimeException e) {
            lost += count;
            failed(e);
        }
    }

    private void written() {
        if (fileProblem != null) {
            LOG.info("The audit file {} is written again ({} lines were lost meanwhile)", file.settings().file(), lost);
            fileProblem = null;
            lost = 0;
        }
    }

    private void failed(Exception e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
        Problem problem = new Problem(file.settings().file().toString(), "the audit file cannot be written (" + why
                + "): calls are not recorded until it can be, which is tried at every call; " + lost
                + " lines lost so far");
        if (fileProblem == null) {
            LOG.error("{}", problem);
        }
        fileProblem = problem;
    }

    private void post(String topic, Map<String, Object> fields) {
        EventAdmin admin = eventAdmin;
        if (admin == null) {
            return;
        }
        try {
            admin.postEvent(new Event(topic, AuditEntry.eventProperties(fields)));
        } catch (RuntimeException e) {
            LOG.warn("Event Admin refused the audit event on {}: {}", topic, e.toString());
        }
    }

    private AuditConfig read(Map<String, Object> properties, AuditConfig previous) {
        TypedConfig.Result<AuditConfig> result = TypedConfig.read(AuditConfig.class, properties, previous);
        AuditConfig c = result.config();
        runningAfterNanos = c.runningAfterMs() < 0 || !c.enabled() ? -1 : TimeUnit.MILLISECONDS.toNanos(c.runningAfterMs());
        List<Problem> found = result.problems().stream().map(p -> new Problem(p.source(), p.reason())).toList();
        found.stream().filter(p -> !configProblems.contains(p)).forEach(p -> LOG.warn("{}", p));
        configProblems = found;
        return result.config();
    }
}
