package io.quiver.shell.internal;

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
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * An engine that answers like the real one at the transport SPI: initialize opens a session,
 * notifications are accepted, tools/call is served by {@link #onCall}. It records every message.
 */
final class FakeEngine implements McpEngine {

    static final ObjectMapper JSON = JsonMapper.builder().build();
    static final StreamPolicy POLICY = new StreamPolicy(true, true, false);


    final List<JsonNode> received = new CopyOnWriteArrayList<>();
    final List<Inbound> inbounds = new CopyOnWriteArrayList<>();
    final FakeSession session = new FakeSession();
    /** Serves a tools/call: gets the request and the sink. */
    volatile CallHandler onCall = (request, sink) -> sink.complete(bytes(
            "{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id") + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}"));

    interface CallHandler {
        void serve(JsonNode request, MessageSink sink);
    }

    @Override
    public Receipt receive(byte[] message, Inbound inbound) {
        JsonNode node = JSON.readTree(message);
        received.add(node);
        inbounds.add(inbound);
        String method = node.path("method").asString("");
        if (!node.has("id") || !node.has("method")) {
            return new Receipt.Accepted();
        }
        if (method.equals("initialize")) {
            return new Receipt.Pending(session, exchange(method, sink -> sink.complete(bytes(
                    "{\"jsonrpc\":\"2.0\",\"id\":" + node.path("id") + ",\"result\":{\"protocolVersion\":\"2025-11-25\","
                            + "\"capabilities\":{},\"serverInfo\":{\"name\":\"fake\",\"version\":\"1\"}}}"))));
        }
        if (method.equals("tools/call")) {
            return new Receipt.Pending(session, exchange(method, sink -> onCall.serve(node, sink)));
        }
        return new Receipt.Rejected(Receipt.Reason.INVALID_REQUEST, bytes("{}"));
    }

    List<String> methods() {
        return received.stream().map(m -> m.path("method").asString(m.has("error") ? "(error response)" : "?")).toList();
    }

    static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static Exchange exchange(String method, Consumer<MessageSink> serve) {
        return new Exchange() {
            @Override
            public void start(MessageSink sink) {
                Thread t = new Thread(() -> serve.accept(sink), "fake-engine " + method);
                t.setDaemon(true);
                t.start();
            }

            @Override
            public String method() {
                return method;
            }

            @Override
            public String protocolVersion() {
                return "2025-11-25";
            }

            @Override
            public void abandon() {
            }

            @Override
            public StreamPolicy streamPolicy() {
                return POLICY;
            }
        };
    }

    @Override
    public Optional<McpSession> session(String id) {
        return Optional.of(session);
    }

    @Override
    public byte[] errorResponse(int code, String message) {
        return bytes("{}");
    }

    @Override
    public List<String> supportedVersions() {
        return List.of("2025-11-25");
    }

    @Override
    public void drain() {
        // nothing in flight
    }

    static final class FakeSession implements McpSession {
        volatile boolean open = true;

        @Override
        public String id() {
            return "fake-session";
        }

        @Override
        public String protocolVersion() {
            return "2025-11-25";
        }

        @Override
        public CallerIdentity caller() {
            return ShellClient.OPERATOR;
        }

        @Override
        public StreamPolicy streamPolicy() {
            return POLICY;
        }

        @Override
        public AutoCloseable attach(MessageSink sink) {
            return null;
        }

        @Override
        public boolean hasStream() {
            return false;
        }

        @Override
        public void close() {
            open = false;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void onClose(Runnable action) {
        }
    }
}
