package io.quiver.transport.http.internal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The SSE streams of one session: one per POST that answered with SSE, plus the standalone GET
 * stream. Finished streams are kept (up to a bound) so a client can still resume them.
 */
final class SessionStreams {

    private final boolean session;
    private final int retainedStreams;
    private final int bufferEvents;
    private final Map<String, SseStream> streams = new LinkedHashMap<>();
    private final AtomicInteger connections = new AtomicInteger();
    private long counter;

    /** The streams of one session. */
    SessionStreams(int retainedStreams, int bufferEvents) {
        this(true, retainedStreams, bufferEvents);
    }

    /**
     * @param session false for the one stream of a request outside a session (not counted per session, not
     *     resumable: its events carry no ids and none is kept)
     */
    SessionStreams(boolean session, int retainedStreams, int bufferEvents) {
        this.session = session;
        this.retainedStreams = Math.max(1, retainedStreams);
        this.bufferEvents = bufferEvents;
    }

    /** A new stream; {@code kind} is {@code p} (POST) or {@code g} (GET). */
    synchronized SseStream create(char kind) {
        SseStream stream = new SseStream(kind + Long.toString(++counter, 36), bufferEvents, session);
        streams.put(stream.id(), stream);
        evict();
        return stream;
    }

    /** Whom the streams' tickets count against besides the server: this session, or nobody. */
    SessionStreams ownerOfTickets() {
        return session ? this : null;
    }

    /** The connections carrying this session's streams now (counted by {@link StreamBudget}). */
    AtomicInteger connections() {
        return connections;
    }

    synchronized SseStream get(String streamId) {
        return streams.get(streamId);
    }

    synchronized List<SseStream> all() {
        return new ArrayList<>(streams.values());
    }

    synchronized void closeAll() {
        streams.values().forEach(SseStream::close);
        streams.clear();
    }

    private void evict() {
        Iterator<SseStream> it = streams.values().iterator();
        int excess = streams.size() - retainedStreams;
        while (excess > 0 && it.hasNext()) {
            SseStream stream = it.next();
            if (stream.finished()) {
                it.remove();
                excess--;
            }
        }
    }
}
