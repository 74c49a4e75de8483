package io.quiver.shell.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.Exchange;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpEngine;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * An in-process MCP client over the engine's transport SPI: the shell calls tools the way every
 * other client does (the one invocation path), in a session of its own per call: {@code initialize},
 * {@code notifications/initialized}, {@code tools/call}, then the session is closed.
 */
final class ShellClient {

    static final String PROTOCOL_VERSION = "2025-11-25";

    /**
     * Who the shell calls as. Reaching the framework console already means controlling the
     * framework, so the console's user counts as an authenticated operator and administrator (the
     * admin tools need the admin role under the default permissions).
     */
    static final CallerIdentity OPERATOR = new CallerIdentity("shell", CallerIdentity.DEFAULT_TENANT,
            Set.of("operator", "admin"), true);

    /** What a call produced: the JSON-RPC response and the log messages the tool sent meanwhile. */
    record Answer(JsonNode response, List<JsonNode> logMessages) {
    }

    /** A call that could not be made or did not finish; the message is for the operator. */
    static final class CallFailed extends Exception {
        private static final long serialVersionUID = 1L;

        CallFailed(String message) {
            super(message);
        }
    }

    private final McpEngine engine;
    private final ObjectMapper json;
    private final Duration timeout;
    private final String clientVersion;
    private final CallerIdentity caller;

    ShellClient(McpEngine engine, ObjectMapper json, Duration timeout, String clientVersion) {
        this(engine, json, timeout, clientVersion, OPERATOR);
    }

    /** A client that calls as the given caller (the operator in a tenant and project). */
    ShellClient(McpEngine engine, ObjectMapper json, Duration timeout, String clientVersion, CallerIdentity caller) {
        this.caller = caller;
        this.engine = engine;
        this.json = json;
        this.timeout = timeout;
        this.clientVersion = clientVersion;
    }

    /** Calls one tool in a fresh session and closes the session whatever happens. */
    Answer call(String tool, Map<String, Object> arguments) throws CallFailed, InterruptedException {
        Receipt receipt = engine.receive(bytes(new Rpc.Request(1, "initialize", new Rpc.InitializeParams(
                PROTOCOL_VERSION, Map.of(), new Rpc.Implementation("quiver-shell", clientVersion)))),
                new Inbound(null, null, caller));
        Receipt.Pending initializing = pending(receipt, "initialize");
        McpSession session = initializing.session();
        try {
            JsonNode initialized = collect(initializing.exchange(), null).response();
            if (!initialized.has("result")) {
                throw new CallFailed("initialize failed: " + initialized.path("error"));
            }
            String version = initialized.path("result").path("protocolVersion").asString(PROTOCOL_VERSION);
            Inbound inbound = new Inbound(session.id(), version, caller);
            Receipt ack = engine.receive(bytes(new Rpc.Notification("notifications/initialized")), inbound);
            if (!(ack instanceof Receipt.Accepted)) {
                throw new CallFailed("notifications/initialized was refused: " + describe(ack));
            }
            Receipt calling = engine.receive(bytes(new Rpc.Request(2, "tools/call",
                    new Rpc.CallParams(tool, arguments))), inbound);
            return collect(pending(calling, "tools/call").exchange(), inbound);
        } finally {
            session.close();
        }
    }

    /**
     * Starts the exchange and waits for its response. Log notifications are kept; a request from
     * the server (elicitation, sampling: never asked for, since the shell declares no capability)
     * gets a JSON-RPC error so the tool does not wait for an answer that cannot come.
     */
    private Answer collect(Exchange exchange, Inbound inbound) throws CallFailed, InterruptedException {
        CompletableFuture<byte[]> response = new CompletableFuture<>();
        List<JsonNode> logs = new CopyOnWriteArrayList<>();
        exchange.start(new MessageSink() {
            @Override
            public void send(byte[] message) {
                JsonNode node;
                try {
                    node = json.readTree(message);
                } catch (JacksonException e) {
                    return;
                }
                String method = node.path("method").asString("");
                if (node.has("id") && !method.isEmpty() && inbound != null) {
                    engine.receive(bytes(new Rpc.ErrorResponse(node.get("id"), -32601,
                            "The Quiver shell cannot answer " + method)), inbound);
                } else if ("notifications/message".equals(method)) {
                    logs.add(node.path("params"));
                }
            }

            @Override
            public void complete(byte[] message) {
                response.complete(message);
            }
        });
        byte[] body;
        try {
            body = response.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            if (inbound != null) {
                engine.receive(bytes(new Rpc.Cancelled(2, "the shell stopped waiting")), inbound);
            }
            throw new CallFailed(exchange.method() + ": no answer within " + timeout.toMillis()
                    + " ms; the request was cancelled (the shell's callTimeoutMs sets the wait)");
        } catch (ExecutionException e) {
            throw new CallFailed(exchange.method() + " failed: " + e.getCause());
        }
        if (body == null) {
            throw new CallFailed(exchange.method() + " ended without a response (cancelled)");
        }
        try {
            return new Answer(json.readTree(body), List.copyOf(logs));
        } catch (JacksonException e) {
            throw new CallFailed(exchange.method() + ": the response is not JSON: " + e.getOriginalMessage());
        }
    }

    private Receipt.Pending pending(Receipt receipt, String method) throws CallFailed {
        if (receipt instanceof Receipt.Pending pending) {
            return pending;
        }
        throw new CallFailed(method + " was refused: " + describe(receipt));
    }

    private String describe(Receipt receipt) {
        if (receipt instanceof Receipt.Rejected rejected) {
            return rejected.reason() + " " + new String(rejected.body(), StandardCharsets.UTF_8);
        }
        return receipt.getClass().getSimpleName();
    }

    private byte[] bytes(Object message) {
        return json.writeValueAsBytes(message);
    }
}
