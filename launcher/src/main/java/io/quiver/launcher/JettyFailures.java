package io.quiver.launcher;

/**
 * Felix HTTP's reports that Jetty did not start, as the command line's logging ({@link StartLog}) notes them:
 * the start waits for its endpoint only until one comes. A later report that Jetty started (Felix HTTP starts it
 * again for a new configuration) clears it. Empty where Quiver is embedded with other logging.
 */
final class JettyFailures {

    /** Why Jetty did not start, and when ({@link System#nanoTime()}). */
    record Failure(String why, long at) {
    }

    private static volatile Failure last;
    /** The first error Felix HTTP logged (with an exception) since Jetty last started or failed, or null. */
    private static volatile String firstError;

    private JettyFailures() {
    }

    /**
     * An error Felix HTTP logged on its way to a failure, which says more than the failure's own exception (a
     * connector that did not start because its key store did not open, before a failure to go on without it).
     */
    static void error(String what) {
        if (firstError == null) {
            firstError = what;
        }
    }

    /** Jetty did not start: why, told by the first error logged before it if there was one. */
    static void report(String why) {
        String first = firstError;
        firstError = null;
        last = new Failure(first != null ? first : why, System.nanoTime());
    }

    /** Felix HTTP started Jetty: an earlier failure no longer stands. */
    static void started() {
        last = null;
        firstError = null;
    }

    /** The last failure reported at or after {@code sinceNanos}, or null. */
    static Failure since(long sinceNanos) {
        Failure f = last;
        return f != null && f.at() - sinceNanos >= 0 ? f : null;
    }
}
