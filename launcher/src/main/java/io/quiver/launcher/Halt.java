package io.quiver.launcher;

/** Ends the process at once, when an orderly stop is not to be had. */
final class Halt {

    private Halt() {
    }

    /**
     * Kills every process this one started, and what they started (command tools, upstream servers: they
     * run in sessions of their own, where no terminal's signal reaches them, and the orderly stop that ends
     * them is what is given up), then halts with {@code status}.
     */
    static void now(int status) {
        try {
            ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        } catch (RuntimeException e) {
            // halting anyway
        }
        Runtime.getRuntime().halt(status);
    }
}
