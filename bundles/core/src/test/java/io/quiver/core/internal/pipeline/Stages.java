package io.quiver.core.internal.pipeline;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.Tool;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallListener;
import io.quiver.api.transport.MessageSink;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.era.StatelessEra;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.request.Peer;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.ObjectNode;

/** What the stage tests share: a real catalog, the extensions, and calls in a 2026-07-28 request scope. */
final class Stages {

    private static final AtomicLong SERVICE_IDS = new AtomicLong(1000);

    final Catalog catalog = new Catalog();
    final Extensions extensions = new Extensions();
    final List<CallEvent> events = new CopyOnWriteArrayList<>();
    final List<byte[]> sent = new CopyOnWriteArrayList<>();
    /** The host's time to answer, in milliseconds; tests of host loss shorten it. */
    volatile long hostTimeoutMs = 10_000;
    /** The host waits' alarms (daemon threads: nothing to shut down). */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stage-test-host-timer");
        t.setDaemon(true);
        return t;
    });
    final HostWait hostWait = new HostWait(TIMER, () -> hostTimeoutMs);

    /** Registers a tool under a name, with an input schema or none. */
    Stages tool(String name, Tool tool, String inputSchema) {
        return tool(name, tool, inputSchema, Map.of());
    }

    /** The same with more service properties ({@code mcp.tool.troubleshootingHint}, say). */
    Stages tool(String name, Tool tool, String inputSchema, Map<String, Object> more) {
        Map<String, Object> props = new HashMap<>(more);
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "stage test tool " + name);
        if (inputSchema != null) {
            props.put("mcp.tool.inputSchema", inputSchema);
        }
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        props.put("service.ranking", 0);
        catalog.bindTool(tool, props);
        return this;
    }

    /** What the scopes made from now on declare of their client. */
    volatile Map<String, Object> clientCapabilities = Map.of();

    /** Every call event from now on lands in {@link #events}. */
    Stages listening() {
        CallListener listener = events::add;
        extensions.addListener(listener);
        return this;
    }

    RequestScope scope(CallerIdentity caller) {
        return scope(caller, null);
    }

    /** A 2026-07-28 request, with these transport headers (or none). */
    RequestScope scope(CallerIdentity caller, Map<String, String> headers) {
        Peer peer = new Peer(caller, new ClientInfo("stage-test", "1", clientCapabilities), "2026-07-28", null, headers);
        MessageSink sink = new MessageSink() {
            @Override
            public void send(byte[] message) {
                sent.add(message);
            }

            @Override
            public void complete(byte[] response) {
            }
        };
        return new RequestScope(new StatelessEra(Map.of(), EngineSettings.of(Map.of())), null, peer, IntNode.valueOf(7),
                Json.MAPPER.createObjectNode(), sink);
    }

    /** A call of a tool by an anonymous caller, resolved. */
    Call resolved(String name, String arguments) {
        Call call = call(name, arguments);
        new Resolve(catalog).resolve(call);
        return call;
    }

    Call call(String name, String arguments) {
        return new Call(scope(CallerIdentity.ANONYMOUS), name, args(arguments));
    }

    /** A call of a tool by {@code caller}, resolved. */
    Call resolved(String name, String arguments, CallerIdentity caller) {
        Call call = new Call(scope(caller), name, args(arguments));
        new Resolve(catalog).resolve(call);
        return call;
    }

    static ObjectNode args(String json) {
        return (ObjectNode) Json.MAPPER.readTree(json);
    }

    /** The one event of a call that is over, as its listeners hear it. */
    CallEvent over(Call call) {
        new Record(extensions, hostWait).over(call);
        return events.get(events.size() - 1);
    }
}
