package io.quiver.core.internal.pipeline;

import io.quiver.api.call.HostChannel;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Asks the host channel something on the call's thread. The host may block (a user deciding): the
 * call's own timeout does not run meanwhile, but the host's does ({@code hostTimeoutMs}): past it the
 * thread is interrupted and the call ends with {@link HostTimeout} (a host that stopped answering never
 * wedges a call). The client cancelling the call, or the host stopping it, interrupts the wait too, and
 * the call ends as cancelled whatever the host answers then.
 */
final class HostWait {

    private static final int ASKING = 0;
    private static final int ANSWERED = 1;
    private static final int TIMED_OUT = 2;
    private static final int GONE = 3;

    /** A thread waiting for a host's answer. */
    private record Waiter(HostChannel host, Thread thread, AtomicInteger state) {
    }

    private final ScheduledExecutorService timer;
    private final LongSupplier timeoutMs;
    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();
    private final Predicate<HostChannel> present;

    HostWait(ScheduledExecutorService timer, LongSupplier timeoutMs) {
        this(timer, timeoutMs, host -> true);
    }

    /** @param present whether a host channel is still registered: one that is not is not asked */
    HostWait(ScheduledExecutorService timer, LongSupplier timeoutMs, Predicate<HostChannel> present) {
        this.timer = timer;
        this.timeoutMs = timeoutMs;
        this.present = present;
    }

    /** The host could not take its part in the call: the call ends with this message. */
    static class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message, null, false, false);
        }
    }

    /** The host gave no answer: not within its time, or it went away meanwhile ({@link #hostGone}). */
    static final class HostTimeout extends Failed {
        private static final long serialVersionUID = 1L;

        HostTimeout(String message) {
            super(message);
        }
    }

    /**
     * The host's answer.
     *
     * @param what what the host was asked, for the timeout's message ("admit the call")
     * @throws CancellationException when the call was cancelled (or stopped) while the host decided
     * @throws HostTimeout when the host did not answer in time
     */
    <T> T ask(Call call, String what, Supplier<T> question) {
        Thread asking = Thread.currentThread();
        long timeout = timeoutMs.getAsLong();
        AtomicInteger state = new AtomicInteger(ASKING);
        ScheduledFuture<?> alarm;
        try {
            alarm = timer.schedule(() -> {
                if (state.compareAndSet(ASKING, TIMED_OUT)) {
                    asking.interrupt();
                }
            }, timeout, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            alarm = null; // the engine is stopping: cancellation ends the wait
        }
        Waiter waiter = new Waiter(call.host(), asking, state);
        waiting.add(waiter);
        // after joining the waiters: a host that goes from now on ends this wait, one gone already is not asked
        if (waiter.host() != null && !present.test(waiter.host())) {
            state.compareAndSet(ASKING, GONE);
        }
        T answer = null;
        RuntimeException failure = null;
        try (AutoCloseable hook = call.scope().onCancel(asking::interrupt)) {
            if (state.get() == ASKING) {
                answer = question.get();
            }
        } catch (RuntimeException e) {
            failure = e;
        } catch (Exception e) {
            failure = new IllegalStateException(e); // closing the hook does not throw
        } finally {
            waiting.remove(waiter);
            boolean answered = state.compareAndSet(ASKING, ANSWERED);
            boolean gone = !answered && state.get() == GONE;
            boolean timedOut = !answered && !gone;
            if (alarm != null) {
                alarm.cancel(false);
            }
            if (!answered || call.scope().isCancelled()) {
                Thread.interrupted(); // the interrupt was for the host's wait, not for whoever handles this
            }
            if (call.scope().isCancelled()) {
                throw new CancellationException("cancelled while the host decided");
            }
            if (timedOut) {
                throw new HostTimeout("The host did not " + what + " within " + seconds(timeout) + ".");
            }
            if (gone) {
                throw new HostTimeout("The host application went away before it could " + what + ".");
            }
        }
        if (failure != null) {
            throw failure;
        }
        return answer;
    }

    /**
     * The host channel is gone (its service unregistered): every wait on it ends now, its calls with an error, instead
     * of when {@code hostTimeoutMs} runs out. A host that stops its calls as it goes has ended them already.
     */
    void hostGone(HostChannel host) {
        for (Waiter waiter : waiting) {
            if (waiter.host() == host && waiter.state().compareAndSet(ASKING, GONE)) {
                waiter.thread().interrupt();
            }
        }
    }

    private static String seconds(long ms) {
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
