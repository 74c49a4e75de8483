package io.quiver.core.internal.engine;

import io.quiver.api.resource.ResourceEvents;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpEngine;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.Receipt;
import io.quiver.api.operator.CatalogEntry;
import io.quiver.api.operator.CatalogProblem;
import io.quiver.api.operator.McpOperator;
import io.quiver.api.operator.SessionInfo;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.RankedRegistry;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import java.util.Comparator;
import io.quiver.core.internal.rpc.JsonRpc;
import io.quiver.core.internal.rpc.RpcError;
import java.util.List;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The engine as an OSGi service: configuration in, {@link McpEngine} and {@link ResourceEvents} out. */
@Component(service = {McpEngine.class, ResourceEvents.class, McpOperator.class}, configurationPid = "io.quiver.core")
@Designate(ocd = EngineComponent.Config.class)
public final class EngineComponent implements McpEngine, ResourceEvents, McpOperator {

    /** Settings of the protocol engine (PID {@code io.quiver.core}). */
    @ObjectClassDefinition(name = "Quiver engine", description = "Protocol engine limits and identity")
    public @interface Config {
        @AttributeDefinition(description = "Server name reported to clients")
        String serverName() default "quiver";

        @AttributeDefinition(description = "Instructions for the model, sent on initialize")
        String instructions() default "";

        @AttributeDefinition(description = "Default per-attempt tool timeout (ms)")
        long toolTimeoutMs() default 60_000;

        @AttributeDefinition(description = "Tool attempts running at once")
        int maxConcurrentCalls() default 64;

        @AttributeDefinition(description = "Requests served at once")
        int maxConcurrentRequests() default 256;

        @AttributeDefinition(description = "Requests that may wait for a thread before the server answers busy")
        int maxQueued() default 1024;

        @AttributeDefinition(description = "How long to wait for the client to answer elicitation or sampling (ms)")
        long clientRequestTimeoutMs() default 300_000;

        @AttributeDefinition(description = "Idle sessions are closed after this long (ms)")
        long sessionIdleTimeoutMs() default 3_600_000;

        @AttributeDefinition(description = "Items per page of tools/list, resources/list, prompts/list")
        int pageSize() default 100;

        @AttributeDefinition(description = "List changes within this window give one notification (ms)")
        long listChangedDebounceMs() default 250;

        @AttributeDefinition(description = "How often one tool call may ask for input")
        int maxInputRounds() default 10;

        @AttributeDefinition(description = "Most bytes one tool call may return; text beyond it is cut with a marker")
        long maxOutputBytes() default 1L << 20;

        @AttributeDefinition(description = "2026-07-28 cache hint (ttlMs) on discover and list results")
        long listTtlMs() default 0;

        @AttributeDefinition(description = "2026-07-28 cache hint (ttlMs) on resource reads")
        long readTtlMs() default 0;

        @AttributeDefinition(description = "2026-07-28 cache scope of cacheable results: public or private")
        String cacheScope() default "private";

        @AttributeDefinition(description = "Keys (at least 32 characters) that sign 2026-07-28 request state; the first signs,"
                + " all verify, so a new key goes first and the old one stays until its states expire. Empty: a random key"
                + " per start (state does not survive a restart or reach other instances)")
        String[] requestStateKeys() default {};

        @AttributeDefinition(description = "How long a 2026-07-28 request state stays valid (ms)")
        long requestStateTtlMs() default 600_000;

        @AttributeDefinition(description = "Tasks extension: how long a task is kept after it was created (ms)")
        long taskTtlMs() default 3_600_000;

        @AttributeDefinition(description = "Tasks extension: the timeout of one attempt of a task (ms)")
        long taskTimeoutMs() default 3_600_000;

        @AttributeDefinition(description = "Tasks extension: tasks kept at once")
        int maxTasks() default 10_000;
    }

    private final Engine engine;
    private final Catalog catalog;
    private final ToolLimitsRegistry limits = new ToolLimitsRegistry();

    @Activate
    public EngineComponent(@Reference Catalog catalog, Config config) {
        this.catalog = catalog;
        String version = EngineComponent.class.getPackage().getImplementationVersion();
        this.engine = new Engine(catalog, new EngineSettings(config.serverName(),
                version == null ? "0.1.0" : version, config.instructions(), config.toolTimeoutMs(),
                config.maxConcurrentCalls(), config.maxConcurrentRequests(), config.maxQueued(),
                config.clientRequestTimeoutMs(), config.sessionIdleTimeoutMs(), config.pageSize(),
                config.listChangedDebounceMs(), config.maxInputRounds(), config.maxOutputBytes(), config.listTtlMs(),
                config.readTtlMs(), "public".equals(config.cacheScope()) ? "public" : "private",
                java.util.Arrays.stream(config.requestStateKeys()).flatMap(k -> java.util.Arrays.stream(k.split(",")))
                        .map(String::trim).filter(k -> !k.isEmpty()).toList(),
                config.requestStateTtlMs(), config.taskTtlMs(), config.taskTimeoutMs(), config.maxTasks()), limits);
    }

    @Reference(service = ToolLimitsComponent.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "unbindLimits", updated = "bindLimits")
    void bindLimits(ToolLimitsComponent component) {
        limits.put(component.limits());
    }

    void unbindLimits(ToolLimitsComponent component) {
        limits.remove(component.limits().tool());
    }

    @Deactivate
    void deactivate() {
        engine.close();
    }

    @Override
    public Receipt receive(byte[] message, Inbound inbound) {
        return engine.receive(message, inbound);
    }

    @Override
    public Optional<McpSession> session(String id) {
        return engine.session(id);
    }

    @Override
    public byte[] errorResponse(int code, String message) {
        return JsonRpc.error(null, new RpcError(code, message, null));
    }

    @Override
    public List<String> supportedVersions() {
        return engine.supportedVersions();
    }

    @Override
    public void updated(String uri) {
        engine.resourceUpdated(uri);
    }

    @Override
    public List<CatalogEntry> tools() {
        return catalog.tools().winners().values().stream().map(EngineComponent::entry).toList();
    }

    @Override
    public List<CatalogEntry> shadowed() {
        return catalog.tools().shadowed().stream().map(EngineComponent::entry).toList();
    }

    @Override
    public List<CatalogProblem> problems() {
        return catalog.problems();
    }

    @Override
    public List<SessionInfo> sessions() {
        return engine.sessions().all().stream()
                .sorted(Comparator.comparing(Session::id))
                .map(s -> new SessionInfo(s.id(), s.protocolVersion(),
                        (s.client().name() + " " + s.client().version()).trim(), s.caller().subject(),
                        s.hasStream(), s.inflight(), s.idleMillis()))
                .toList();
    }

    private static CatalogEntry entry(RankedRegistry.Entry<ToolEntry> e) {
        return new CatalogEntry(e.key(), e.value().descriptor().path("description").asString(""), e.serviceId(),
                e.ranking(), e.value().bundleId());
    }
}
