package io.quiver.transport.http.internal;

import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads that serve what the selector lane may not (the call of a tool that may block, a
 * streamed answer), first in, first out, while the lane goes on reading.
 *
 * <p>Few threads serve best while the work is short: on a busy core every runnable thread takes its
 * turn, and a call that loses the core waits behind all of them (Jetty's pool, one thread per
 * connection, made a trivial blocking tool's p99 at 256 clients about 900 ms on one core; a handful
 * of threads taking calls in order made it about 30 ms). So the pool keeps {@code core} threads and
 * starts more only when work has waited {@code growAfterMs} while the process left CPU unused: calls
 * that really block (a remote service, a slow disk) hold their threads without using the CPU, and
 * threads are added every {@code growAfterMs} while it stays so, up to {@code max}; a CPU kept busy is
 * not helped by more threads taking turns on it. Threads beyond {@code core} stop after a minute
 * without work. Beyond {@code maxQueued} waiting tasks {@link #execute} refuses, and the
 * caller takes its other way.
 *
 * <p>A task whose answer was given from another thread while its own thread stays in it (a tool that
 * ignores the interrupt of its timeout or cancellation: the engine answers from its timer) gives up its
 * {@link Seat} after {@link #ABANDON_AFTER_MS}: its thread no longer counts against {@code max}, so
 * another takes its place, and it ends once the task returns, if ever. Up to {@code max} threads are given
 * up so at once; beyond that they count again, so stuck tools cannot make threads without end.
 */
final class CallPool implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(CallPool.class);
    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long CPU_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private record Task(Runnable work, long queuedAt) {
    }

    private final ScheduledExecutorService timer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final ArrayDeque<Task> queue = new ArrayDeque<>();
    private int threads;
    /** Threads waiting for work. */
    private int idle;
    /** Wake-ups asked for and not yet taken by a waiting thread. */
    private int signalled;
    private boolean checking;
    /**
     * Whether the process left CPU unused over the last window of looks (the JDK counts process CPU in
     * clock ticks, 10 ms on Linux: a window spans many), when the window began (0: looks stopped, the
     * next takes its bearings), and the CPU time then.
     */
    private boolean spare;
    private long windowStart;
    private long windowCpu;
    /** When the next look is due. */
    private long due;
    private boolean closed;
    private final AtomicInteger started = new AtomicInteger();
    /** Threads that gave up their seat (still in their task) and no longer count in {@link #threads}. */
    private int abandoned;
    /** How long an answer given elsewhere waits for its thread to come back before the seat is given up: {@value} ms. */
    static final long ABANDON_AFTER_MS = 1_000;
    private final long abandonAfterNanos;
    private static final ThreadLocal<Seat> SEAT = new ThreadLocal<>();
    private final Throttled stuck = new Throttled(LOG, 60_000);
    private volatile int core;
    private volatile int max;
    private volatile int maxQueued;
    private volatile long growAfterNanos;

    /** @param timer where the looks at the queue run; the pool takes work once {@link #resize} sized it */
    CallPool(ScheduledExecutorService timer) {
        this(timer, ABANDON_AFTER_MS);
    }

    CallPool(ScheduledExecutorService timer, long abandonAfterMs) {
        this.timer = timer;
        this.abandonAfterNanos = TimeUnit.MILLISECONDS.toNanos(abandonAfterMs);
    }

    /**
     * A call thread's place in the pool, for the task it runs: {@link #answeredElsewhere} when that task's
     * answer was given on another thread.
     */
    final class Seat {
        private final Thread thread;
        /** Under the pool's lock: the number of the task it runs (or ran last), whether it runs one, whether given up. */
        private long task;
        private boolean running;
        private boolean left;

        private Seat(Thread thread) {
            this.thread = thread;
        }

        private CallPool owner() {
            return CallPool.this;
        }

        /**
         * {@code sink}, telling this seat when its answer is given ({@link #answeredElsewhere}); called on the seat's own
         * thread, in the task the answer belongs to.
         */
        MessageSink watching(MessageSink sink) {
            long number = task; // read on this seat's thread, the one that sets it
            return new MessageSink() {
                @Override
                public void send(byte[] message) {
                    sink.send(message);
                }

                @Override
                public void complete(byte[] response) {
                    answeredElsewhere(number);
                    sink.complete(response);
                }

                @Override
                public void fail(Receipt.Reason reason, byte[] response) {
                    answeredElsewhere(number);
                    sink.fail(reason, response);
                }
            };
        }

        /**
         * Task {@code number}'s answer was given; when that happened on another thread while this one is still in that
         * task, the seat is given up unless the thread comes back within {@link #ABANDON_AFTER_MS}. The number is the
         * task's whose answer it is: the thread may have gone on to another one since (an answer given from elsewhere
         * after its task returned, the engine's own threads having served it), whose seat is not given up.
         */
        void answeredElsewhere(long number) {
            if (Thread.currentThread() == thread) {
                return;
            }
            lock.lock();
            try {
                if (!running || left || closed || task != number) {
                    return;
                }
            } finally {
                lock.unlock();
            }
            try {
                timer.schedule(() -> leave(this, number), abandonAfterNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the transport is stopping
            }
        }
    }

    /** The seat of the calling thread when it is one of this pool's, else null. */
    Seat seat() {
        Seat seat = SEAT.get();
        return seat != null && seat.owner() == this ? seat : null;
    }

    /** Gives up a seat whose thread is still in task {@code number}; a thread takes its place when work waits. */
    private void leave(Seat seat, long number) {
        boolean start = false;
        int given;
        lock.lock();
        try {
            if (!seat.running || seat.left || seat.task != number || closed || abandoned >= max) {
                return;
            }
            seat.left = true;
            threads--;
            abandoned++;
            given = abandoned;
            if (!queue.isEmpty() && idle <= signalled && threads < max) {
                threads++;
                start = true;
            }
        } finally {
            lock.unlock();
        }
        stuck.warn("call threads were left in tasks answered from elsewhere (tools that ignore the interrupt of their"
                + " timeout or cancellation), and others took their places ({})",
                given + " so held now, at most maxCallThreads; the last " + seat.thread.getName());
        if (start) {
            startThread();
        }
    }

    /** Takes new limits; running and waiting work is kept (threads beyond the limit stop when idle). */
    void resize(int core, int max, int maxQueued, long growAfterMs) {
        boolean check = false;
        lock.lock();
        try {
            this.core = Math.max(1, core);
            this.max = Math.max(this.core, max);
            this.maxQueued = Math.max(1, maxQueued);
            this.growAfterNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, growAfterMs));
            if (threads > this.max) {
                work.signalAll(); // idle threads beyond the new most stop now
            }
            // what waits when the most was reached may get threads now
            check = !queue.isEmpty() && !closed && threads < this.max && arm();
        } finally {
            lock.unlock();
        }
        if (check) {
            schedule(growAfterNanos);
        }
    }

    /** What the pool holds at one moment, for operators. */
    record Load(int threads, int busy, int max, int queued, int maxQueued, int stuck) {
    }

    /**
     * Its threads (and how many of them run a task), its most, the tasks waiting, and the threads that gave up their
     * seat, read together.
     */
    Load load() {
        lock.lock();
        try {
            return new Load(threads, Math.max(0, threads - idle), max, queue.size(), maxQueued, abandoned);
        } finally {
            lock.unlock();
        }
    }

    /** Threads the pool has now (running or idle). */
    int threads() {
        lock.lock();
        try {
            return threads;
        } finally {
            lock.unlock();
        }
    }

    /** @throws RejectedExecutionException when {@code maxQueued} tasks wait already, or the pool is closed */
    @Override
    public void execute(Runnable task) {
        boolean start = false;
        boolean check = false;
        lock.lock();
        try {
            if (closed || queue.size() >= maxQueued) {
                throw new RejectedExecutionException(closed ? "the call pool is closed" : "the call pool's queue is full");
            }
            queue.add(new Task(task, System.nanoTime()));
            if (idle > signalled) {
                signalled++;
                work.signal();
            } else if (threads < core) {
                threads++;
                start = true;
            } else {
                check = threads < max && arm(); // whether tasks wait too long is looked at once they could have
            }
        } finally {
            lock.unlock();
        }
        if (start) {
            startThread();
        }
        if (check) {
            schedule(growAfterNanos);
        }
    }

    /** Under the lock: whether a look at the queue is now due in {@code growAfterMs} (false: one is already). */
    private boolean arm() {
        if (checking) {
            return false;
        }
        checking = true;
        due = System.nanoTime() + growAfterNanos;
        return true;
    }

    /**
     * Adds threads when the oldest waiting task has waited {@code growAfterMs} and the process left CPU
     * unused since the last look (the threads there wait on something: more of them help; a busy CPU
     * is not helped by more threads taking turns on it); looks again while tasks wait. A look that
     * comes late (the process was paused, by a collection say) or after a quiet spell only takes its
     * bearings.
     */
    private void check() {
        int add = 0;
        lock.lock();
        try {
            checking = false;
            Task head = queue.peek();
            if (head == null || closed || threads >= max) {
                windowStart = 0; // the next look, once armed again, takes its bearings
                return;
            }
            long now = System.nanoTime();
            if (windowStart == 0 || now - due > growAfterNanos) {
                windowStart = now;
                windowCpu = ProcessCpu.nanos();
                spare = windowCpu < 0; // unknown until a window has passed, unless it cannot be known
            } else {
                if (now - windowStart >= Math.max(CPU_WINDOW_NANOS, 5 * growAfterNanos)) {
                    long cpu = ProcessCpu.nanos();
                    spare = cpu < 0 || cpu - windowCpu < (now - windowStart) * ProcessCpu.PROCESSORS * 8 / 10;
                    windowStart = now;
                    windowCpu = cpu;
                }
                if (spare && now - head.queuedAt() >= growAfterNanos && idle <= signalled) {
                    // as many as wait, up to the core count at once, within the most
                    add = Math.min(Math.min(queue.size(), core), max - threads);
                    threads += add;
                }
            }
            arm();
        } finally {
            lock.unlock();
        }
        for (int i = 0; i < add; i++) {
            startThread();
        }
        schedule(growAfterNanos);
    }

    private void schedule(long delayNanos) {
        try {
            timer.schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            lock.lock();
            try {
                checking = false; // the transport is stopping: the threads there finish the queue
            } finally {
                lock.unlock();
            }
        }
    }

    /** The process's CPU time (all its threads), where the JDK tells it. */
    static final class ProcessCpu {
        static final int PROCESSORS = Runtime.getRuntime().availableProcessors();
        private static final MethodHandle GET = find();

        private ProcessCpu() {
        }

        /** Nanoseconds of CPU the process used so far, or -1 where unknown. */
        static long nanos() {
            if (GET == null) {
                return -1;
            }
            try {
                return (long) GET.invoke();
            } catch (Throwable e) {
                return -1;
            }
        }

        /**
         * {@code com.sun.management.OperatingSystemMXBean.getProcessCpuTime}, found through the platform
         * bean's interfaces (the bundle need not import the package).
         */
        private static MethodHandle find() {
            try {
                Object bean = ManagementFactory.getOperatingSystemMXBean();
                for (Class<?> type : bean.getClass().getInterfaces()) {
                    if (type.getName().equals("com.sun.management.OperatingSystemMXBean")
                            || type.getName().equals("com.sun.management.UnixOperatingSystemMXBean")) {
                        MethodHandle handle = MethodHandles.publicLookup()
                                .findVirtual(type, "getProcessCpuTime", MethodType.methodType(long.class))
                                .bindTo(bean);
                        return (long) handle.invoke() >= 0 ? handle : null;
                    }
                }
            } catch (Throwable e) {
                LOG.debug("No process CPU time: call threads are added whenever work waits", e);
            }
            return null;
        }
    }

    private void startThread() {
        Thread thread = new Thread(this::serve, "quiver-call-" + started.incrementAndGet());
        thread.setDaemon(true);
        try {
            thread.start();
        } catch (OutOfMemoryError e) {
            lock.lock();
            try {
                threads--;
            } finally {
                lock.unlock();
            }
            LOG.warn("Could not start a call thread ({} running): {}", threads(), e.toString());
        }
    }

    private void serve() {
        Seat seat = new Seat(Thread.currentThread());
        SEAT.set(seat);
        lock.lock();
        try {
            while (true) {
                Task task = queue.poll();
                if (task != null) {
                    seat.task++;
                    seat.running = true;
                    lock.unlock();
                    try {
                        task.work().run();
                    } catch (RuntimeException | Error e) {
                        LOG.warn("A request failed on a call thread", e);
                    } finally {
                        Thread.interrupted(); // a cancelled call's interrupt is not the next one's
                        lock.lock();
                        seat.running = false;
                    }
                    if (seat.left) {
                        abandoned--; // its place was taken: the thread ends, counted no more
                        return;
                    }
                    continue;
                }
                if (closed || threads > max) {
                    threads--;
                    return;
                }
                idle++;
                long left;
                try {
                    left = work.awaitNanos(KEEP_ALIVE_NANOS);
                } catch (InterruptedException stray) {
                    // nothing here interrupts an idle thread (close signals): a late interrupt of a call this thread
                    // ran (a cancel's) must not end it, as a wake-up may have been counted for it meanwhile
                    left = 1;
                } finally {
                    idle--;
                    if (signalled > 0) {
                        signalled--;
                    }
                }
                if (left <= 0 && queue.isEmpty() && threads > core) {
                    threads--;
                    return;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Takes no more work; the threads finish what waits, then stop. */
    void close() {
        lock.lock();
        try {
            closed = true;
            work.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
