package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.Exchange;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpEngine;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.api.transport.StreamPolicy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * An engine whose receipts a test scripts: what it answers each message with, its sessions, and the exchanges it
 * hands out, whose sinks the test then drives as the engine would.
 */
final class ScriptedEngine implements McpEngine {

    /** A session-based revision's stream policy: primed, resumable, not cancelled by a disconnect. */
    static final StreamPolicy SESSION = new StreamPolicy(true, true, false);
    /** A stateless request's: not resumable, cancelled when its client goes. */
    static final StreamPolicy STATELESS = new StreamPolicy(false, false, true);

    final List<Inbound> inbounds = new CopyOnWriteArrayList<>();
    final Map<String, Session> sessions = new ConcurrentHashMap<>();
    volatile BiFunction<byte[], Inbound, Receipt> script = (message, inbound) -> new Receipt.Accepted();
    /** Whether messages may be received on a thread that must not wait ({@link #receiveNow}). */
    volatile boolean receivesNow = true;
    /** The messages received on such a thread. */
    final List<Inbound> receivedNow = new CopyOnWriteArrayList<>();

    @Override
    public Receipt receive(byte[] message, Inbound inbound) {
        inbounds.add(inbound);
        return script.apply(message, inbound);
    }

    @Override
    public Receipt receiveNow(byte[] message, Inbound inbound) {
        if (!receivesNow) {
            return null;
        }
        receivedNow.add(inbound);
        return receive(message, inbound);
    }

    @Override
    public Optional<McpSession> session(String id) {
        return Optional.<McpSession>ofNullable(sessions.get(id)).filter(McpSession::isOpen);
    }

    @Override
    public byte[] errorResponse(int code, String message) {
        return error(code, message);
    }

    static byte[] error(int code, String message) {
        return ("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + code + ",\"message\":\"" + message + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public List<String> supportedVersions() {
        return List.of("2025-03-26", "2025-11-25", "2026-07-28");
    }

    @Override
    public boolean hasSessions(String version) {
        return !version.equals("2026-07-28");
    }

    @Override
    public void drain() {
    }

    /** A new open session of {@code caller}. */
    Session open(String id, CallerIdentity caller) {
        Session session = new Session(id, caller);
        sessions.put(id, session);
        return session;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A session whose attached stream the test drives. */
    static final class Session implements McpSession {
        private final String id;
        private final CallerIdentity caller;
        private final List<Runnable> onClose = new CopyOnWriteArrayList<>();
        private volatile boolean open = true;
        /** The sinks attached, in order. */
        final BlockingQueue<MessageSink> attached = new LinkedBlockingQueue<>();
        private volatile MessageSink current;

        Session(String id, CallerIdentity caller) {
            this.id = id;
            this.caller = caller;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String protocolVersion() {
            return "2025-11-25";
        }

        @Override
        public CallerIdentity caller() {
            return caller;
        }

        @Override
        public StreamPolicy streamPolicy() {
            return SESSION;
        }

        @Override
        public synchronized AutoCloseable attach(MessageSink sink) {
            if (current != null || !open) {
                return null;
            }
            current = sink;
            attached.add(sink);
            return () -> {
                synchronized (this) {
                    if (current == sink) {
                        current = null;
                    }
                }
            };
        }

        @Override
        public boolean hasStream() {
            return current != null;
        }

        @Override
        public void close() {
            open = false;
            onClose.forEach(Runnable::run);
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void onClose(Runnable action) {
            if (open) {
                onClose.add(action);
            } else {
                action.run();
            }
        }

        /** The sink attached next, waited for up to 10 s. */
        MessageSink nextAttached() throws InterruptedException {
            MessageSink sink = attached.poll(10, TimeUnit.SECONDS);
            if (sink == null) {
                throw new AssertionError("no stream was attached");
            }
            return sink;
        }
    }

    /**
     * An exchange: {@code work} runs with the sink it is started with (null: the sink waits for the test in
     * {@link #sinks}).
     */
    static final class Scripted implements Exchange {
        private final List<String> methods;
        private final StreamPolicy policy;
        private final boolean quick;
        private final Consumer<MessageSink> work;
        final BlockingQueue<MessageSink> sinks = new LinkedBlockingQueue<>();
        final CountDownLatch abandoned = new CountDownLatch(1);

        Scripted(List<String> methods, StreamPolicy policy, boolean quick, Consumer<MessageSink> work) {
            this.methods = methods;
            this.policy = policy;
            this.quick = quick;
            this.work = work;
        }

        /** One request of {@code method}, not quick, answered by {@code work}. */
        Scripted(String method, StreamPolicy policy, Consumer<MessageSink> work) {
            this(List.of(method), policy, false, work);
        }

        @Override
        public void start(MessageSink sink) {
            sinks.add(sink);
            if (work != null) {
                work.accept(sink);
            }
        }

        @Override
        public boolean runNow(MessageSink sink) {
            if (!quick) {
                return false;
            }
            start(sink);
            return true;
        }

        @Override
        public boolean quick() {
            return quick;
        }

        @Override
        public String method() {
            return methods.get(0);
        }

        @Override
        public List<String> methods() {
            return methods;
        }

        @Override
        public String protocolVersion() {
            return "2025-11-25";
        }

        @Override
        public StreamPolicy streamPolicy() {
            return policy;
        }

        @Override
        public void abandon() {
            abandoned.countDown();
        }

        /** Refused as the engine does, with the request's id: the scripted requests' is 1. */
        @Override
        public byte[] refusal(int code, String message) {
            return new String(error(code, message), StandardCharsets.UTF_8).replace("\"id\":null", "\"id\":1")
                    .getBytes(StandardCharsets.UTF_8);
        }

        /** The sink it was started with, waited for up to 10 s. */
        MessageSink sink() throws InterruptedException {
            MessageSink sink = sinks.poll(10, TimeUnit.SECONDS);
            if (sink == null) {
                throw new AssertionError("the exchange was not started");
            }
            return sink;
        }

        /** Whether it was abandoned, waited for up to 10 s. */
        boolean abandonedWithin10s() throws InterruptedException {
            return abandoned.await(10, TimeUnit.SECONDS);
        }

        boolean isAbandoned() {
            return abandoned.getCount() == 0;
        }
    }
}
