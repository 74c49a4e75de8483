package io.quiver.tools.command.internal;

import io.quiver.lib.external.ProcessTree;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The processes of one command tool that are running, so that stopping the tool (its configuration
 * deleted, the bundle or Quiver stopping) stops them and every process they started; once closed, no
 * new one starts.
 */
final class Runs {

    private final Set<Process> live = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** Starts a process, unless the tool is stopping. */
    synchronized Process start(ProcessBuilder builder) throws IOException {
        if (closed) {
            throw new IOException("the tool is being stopped");
        }
        Process p = ProcessTree.start(builder); // its session watched, should Quiver end without stopping it
        live.add(p);
        return p;
    }

    void done(Process p) {
        live.remove(p);
    }

    boolean closed() {
        return closed;
    }

    /** How many processes run now. */
    int running() {
        return live.size();
    }

    /** Stops every process running now, with its descendants, and any start from now on. */
    void close() {
        List<ProcessHandle> roots;
        synchronized (this) {
            closed = true;
            roots = live.stream().map(Process::toHandle).toList();
        }
        if (!roots.isEmpty()) {
            ProcessTree.terminate(roots, CommandRun.KILL_GRACE_MS);
        }
    }
}
