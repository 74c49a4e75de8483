package io.quiver.upstream.internal;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** A connection whose server is the test: it takes what the client sends and says what the server sends. */
final class FakeConnection implements Connection {

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** One message the client sent, with its transport headers. */
    record Sent(ObjectNode message, Map<String, String> headers) {
        String method() {
            return message.path("method").asString("");
        }

        JsonNode id() {
            return message.get("id");
        }

        JsonNode params() {
            return message.path("params");
        }
    }

    final BlockingQueue<Sent> sent = new LinkedBlockingQueue<>();
    private final boolean http;
    volatile Listener listener;
    volatile String negotiated;
    volatile Boolean stateless;
    volatile JsonNode abandoned;

    FakeConnection(boolean http) {
        this.http = http;
    }

    @Override
    public void open(Listener listener) {
        this.listener = listener;
    }

    @Override
    public void send(ObjectNode message, Map<String, String> headers) throws IOException {
        sent.add(new Sent(message.deepCopy(), Map.copyOf(headers)));
    }

    @Override
    public void negotiated(String protocolVersion, boolean stateless) {
        this.negotiated = protocolVersion;
        this.stateless = stateless;
    }

    @Override
    public boolean abandon(JsonNode requestId) {
        abandoned = requestId;
        return http;
    }

    @Override
    public boolean http() {
        return http;
    }

    @Override
    public void close() {
    }

    @Override
    public String detail() {
        return "fake";
    }

    /** The next message the client sent (within 5 s). */
    Sent next() throws InterruptedException {
        Sent s = sent.poll(5, TimeUnit.SECONDS);
        if (s == null) {
            throw new AssertionError("the client sent nothing");
        }
        return s;
    }

    /** The next message of a method, skipping others. */
    Sent next(String method) throws InterruptedException {
        while (true) {
            Sent s = next();
            if (s.method().equals(method)) {
                return s;
            }
        }
    }

    /** The server answers a request with a result. */
    void result(Sent request, String resultJson) {
        ObjectNode m = JSON.createObjectNode().put("jsonrpc", "2.0");
        m.set("id", request.id());
        m.set("result", JSON.readTree(resultJson));
        listener.message(m, request.id());
    }

    /** The server answers a request with an error. */
    void error(Sent request, int code, String message, String dataJson) {
        ObjectNode m = JSON.createObjectNode().put("jsonrpc", "2.0");
        m.set("id", request.id());
        ObjectNode e = m.putObject("error").put("code", code).put("message", message);
        if (dataJson != null) {
            e.set("data", JSON.readTree(dataJson));
        }
        listener.message(m, request.id());
    }

    /** The server sends a request of its own (on the stream of {@code relatedTo}, or null). */
    void ask(Object id, String method, String paramsJson, JsonNode relatedTo) {
        ObjectNode m = JSON.createObjectNode().put("jsonrpc", "2.0");
        m.set("id", JSON.valueToTree(id));
        m.put("method", method);
        m.set("params", JSON.readTree(paramsJson));
        listener.message(m, relatedTo);
    }

    void notification(String method, String paramsJson) {
        ObjectNode m = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", method);
        m.set("params", JSON.readTree(paramsJson));
        listener.message(m, null);
    }
}
