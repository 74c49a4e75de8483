package io.quiver.host.internal;

import io.quiver.api.ToolResult;
import io.quiver.api.call.Admission;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Invocation;
import io.quiver.api.call.RecordingFailed;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.lib.content.ContentJson;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The engine's {@link HostChannel} for an embedding application. The application (through the
 * launcher) registers its endpoint from the system bundle: a {@code java.util.function.Consumer} with the
 * property {@code io.quiver.host.endpoint=true}, which receives every request as a {@code Map}. It
 * replies, stops calls and shuts the host down through this component's {@code Function} service
 * ({@code io.quiver.host.control=true}), with {@code Map}s too. An endpoint any other bundle registers
 * is not taken (the reference's target names the system bundle), and the engine takes a host channel
 * only from the bundles the embedder allowed (this one by default).
 *
 * <p>Admission, release, answers to forms, review and recording are each one request the call waits
 * for; the engine's {@code hostTimeoutMs} bounds each wait. Only forms (elicitation) are offered to the
 * host: sampling and roots belong to the client. Answers are never logged.
 */
@Component(service = {HostChannel.class, Function.class}, property = "io.quiver.host.control=true")
public final class HostBridge implements HostChannel, Function<Map<String, Object>, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(HostBridge.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Interactions interactions;
    /** Each call's result as the tool gave it, from review to record, so the host sees raw and delivered. */
    private final Map<String, Map<String, Object>> raw = new ConcurrentHashMap<>();
    /** The form keys asked of the host per call, so that a second request for one says it is asked again. */
    private final Map<String, Set<String>> asked = new ConcurrentHashMap<>();

    @Activate
    public HostBridge(@Reference(service = Consumer.class,
            target = "(&(io.quiver.host.endpoint=true)(service.bundleid=0))") Consumer<Map<String, Object>> endpoint) {
        this.interactions = new Interactions(endpoint);
        LOG.debug("The embedding host's channel is open");
    }

    @Deactivate
    void deactivate() {
        int stopped = interactions.shutDown("the host channel closed");
        if (stopped > 0) {
            LOG.info("The host channel closed; {} calls waiting for it were stopped", stopped);
        }
    }

    @Override
    public void begin(Invocation invocation, Consumer<String> stop) {
        interactions.begin(invocation, stop);
    }

    @Override
    public Admission admit(Invocation invocation) {
        String shutdown = interactions.shutdown();
        if (shutdown != null) {
            return Admission.deny(shutdown);
        }
        Map<String, Object> reply = ask(invocation, "admit", Map.of());
        if ("deny".equals(reply.get("decision"))) {
            return Admission.deny((String) reply.get("reason"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> edited = (Map<String, Object>) reply.get("arguments");
        return Admission.approve(edited);
    }

    @Override
    public boolean awaitRelease(Invocation invocation) {
        return "release".equals(ask(invocation, "release", Map.of()).get("decision"));
    }

    @Override
    public Optional<InputResponse> answer(Invocation invocation, InputRequest request) {
        if (!(request instanceof InputRequest.Elicitation form)) {
            return Optional.empty();
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("key", form.key());
        details.put("message", form.message());
        details.put("schema", form.requestedSchema());
        details.put("sensitive", form.sensitive());
        details.put("again", !asked.computeIfAbsent(invocation.invocationId(), k -> ConcurrentHashMap.newKeySet())
                .add(form.key()));
        Map<String, Object> reply = ask(invocation, "input", details);
        @SuppressWarnings("unchecked")
        Map<String, Object> content = (Map<String, Object>) reply.get("content");
        return switch ((String) reply.get("decision")) {
            case "answer" -> Optional.of(new InputResponse.Elicited("accept", content));
            case "decline" -> Optional.of(new InputResponse.Elicited("decline", Map.of()));
            case "cancel" -> Optional.of(new InputResponse.Elicited("cancel", Map.of()));
            default -> Optional.empty(); // "client": the client is asked, as without a host
        };
    }

    @Override
    public ToolResult review(Invocation invocation, ToolResult result) {
        Map<String, Object> given = map(result);
        raw.put(invocation.invocationId(), given);
        Map<String, Object> reply = ask(invocation, "review", Map.of("result", given));
        return switch ((String) reply.get("decision")) {
            case "replace" -> ContentJson.toolResult(JSON.valueToTree(reply.get("result")));
            case "deny" -> ToolResult.error("The host withheld the result"
                    + (reply.get("reason") == null ? "." : ": " + reply.get("reason")));
            default -> result;
        };
    }

    @Override
    public void record(Invocation invocation, ToolResult delivered) {
        Map<String, Object> details = new LinkedHashMap<>();
        Map<String, Object> result = map(delivered);
        details.put("result", result);
        details.put("raw", raw.getOrDefault(invocation.invocationId(), result));
        Map<String, Object> reply = ask(invocation, "record", details);
        if ("failed".equals(reply.get("decision"))) {
            throw new RecordingFailed(reply.get("reason") == null ? "the host's recording failed"
                    : (String) reply.get("reason"));
        }
    }

    @Override
    public void release(Invocation invocation) {
        end(invocation, Map.of());
    }

    /** The host hears how the call ended: {@code ending} (completed, failed, denied, ...) and {@code detail}. */
    @Override
    public void over(Invocation invocation, CallEvent event) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("ending", event.ending().name().toLowerCase(Locale.ROOT));
        details.put("detail", event.detail());
        end(invocation, details);
    }

    private void end(Invocation invocation, Map<String, Object> details) {
        raw.remove(invocation.invocationId());
        asked.remove(invocation.invocationId());
        interactions.over(invocation, details);
    }

    /**
     * The host's commands: {@code op} = {@code reply} (with {@code id} and the reply's values),
     * {@code stop} ({@code invocationId}, {@code reason}), {@code stopCaller} ({@code subject}, optional
     * {@code tenant}, {@code reason}) or {@code shutdown} ({@code reason}). A reply or stop answers with
     * its status (accepted, stale, duplicate, unknown, invalid: why), the others with how many calls
     * were stopped.
     */
    @Override
    public Object apply(Map<String, Object> command) {
        Object op = command == null ? null : command.get("op");
        if ("reply".equals(op)) {
            return interactions.reply((String) command.get("id"), command);
        }
        String reason = command.get("reason") instanceof String r && !r.isBlank() ? r : null;
        if ("stop".equals(op)) {
            return interactions.stop((String) command.get("invocationId"), reason == null ? "stopped by the host" : reason);
        }
        if ("stopCaller".equals(op)) {
            return interactions.stopCaller((String) command.get("subject"), (String) command.get("tenant"),
                    reason == null ? "stopped by the host" : reason);
        }
        if ("shutdown".equals(op)) {
            return interactions.shutDown(reason);
        }
        return Interactions.INVALID + "no such command: " + op;
    }

    private Map<String, Object> ask(Invocation invocation, String kind, Map<String, Object> details) {
        return interactions.ask(invocation, kind, details, reply -> Requests.misfit(kind, reply));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(ToolResult result) {
        return JSON.convertValue(ContentJson.json(result), Map.class);
    }
}
