package io.quiver.upstream.internal;

import java.util.ArrayDeque;
import java.util.List;

/** The last lines a server wrote on stderr (and Quiver's notes about it), bounded. */
final class StderrTail {

    private final ArrayDeque<String> lines = new ArrayDeque<>();
    private volatile int capacity;

    StderrTail(int capacity) {
        this.capacity = capacity;
    }

    void capacity(int capacity) {
        this.capacity = capacity;
    }

    synchronized void add(String line) {
        lines.addLast(line);
        while (lines.size() > capacity) {
            lines.removeFirst();
        }
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** The last {@code n} lines. */
    synchronized List<String> last(int n) {
        List<String> all = List.copyOf(lines);
        return all.subList(Math.max(0, all.size() - n), all.size());
    }
}
