package io.quiver.core.internal.pipeline;

/**
 * Marks the thread that serves a request through {@code Exchange.runNow}: a thread that must never
 * wait (a transport's selecting thread). The stages that would wait for a client or the host refuse
 * there instead of waiting.
 */
public final class NonBlocking {

    private static final ThreadLocal<Boolean> HERE = new ThreadLocal<>();

    private NonBlocking() {
    }

    /** Runs {@code work} with this thread marked as one that must not wait. */
    public static void run(Runnable work) {
        HERE.set(Boolean.TRUE);
        try {
            work.run();
        } finally {
            HERE.remove();
        }
    }

    /** Whether this thread must not wait. */
    public static boolean here() {
        return HERE.get() != null;
    }
}
