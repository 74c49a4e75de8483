package io.quiver.lib.external;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Stopping a child process together with every process it started: SIGTERM to all of them at once,
 * then, after a grace, SIGKILL to whatever is left, including what the survivors started meanwhile.
 *
 * <p>The tree is what the operating system shows as descendants when it is stopped: a process that
 * left it before (a daemon that detached itself, an orphan whose parent already exited) is not in it,
 * unless the caller names it.
 */
public final class ProcessTree {

    /** How often a stop looks whether the tree is gone. */
    private static final long POLL_MS = 10;

    private ProcessTree() {
    }

    /** Stops a process and its descendants: SIGTERM, then SIGKILL to what is left after {@code graceMs}. */
    public static void terminate(Process process, long graceMs) {
        terminate(List.of(process.toHandle()), graceMs);
    }

    /**
     * Stops processes and all their descendants: SIGTERM to every one, a wait of up to {@code graceMs}
     * for them to exit, then SIGKILL to every one left and to what those started in the meantime. An
     * interrupt ends the wait early (the kill still follows) and stays set.
     */
    public static void terminate(Collection<ProcessHandle> roots, long graceMs) {
        Set<ProcessHandle> tree = tree(roots);
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
        while (tree.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<ProcessHandle> left = new ArrayList<>(tree(tree.stream().filter(ProcessHandle::isAlive).toList()));
        left.forEach(ProcessHandle::destroyForcibly);
    }

    /** The processes and their descendants, descendants first. */
    private static Set<ProcessHandle> tree(Collection<ProcessHandle> roots) {
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        for (ProcessHandle root : roots) {
            root.descendants().forEach(tree::add);
            tree.add(root);
        }
        return tree;
    }
}
