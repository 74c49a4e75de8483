package io.quiver.itests.paxexam.calls;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolResult;
import io.quiver.api.call.Admission;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallListener;
import io.quiver.api.call.CallPolicy;
import io.quiver.api.call.Decision;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Invocation;
import io.quiver.api.call.Target;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import tools.jackson.databind.JsonNode;

/**
 * The call SPIs as another bundle provides them, registered by the probe at runtime. Kept out of the
 * test classes (JUnit reflects on them outside the framework, where the Quiver API is not on the class
 * path): what they observe comes back as strings and counters.
 */
public final class CallProbes {

    private CallProbes() {
    }

    /**
     * A tool that counts its runs and answers {@code echo: <text>}; with {@code confirm: true} it first
     * asks for a confirmation ({@code confirm}, an elicitation).
     */
    public static ServiceRegistration<?> registerCounting(BundleContext context, String name, AtomicInteger runs) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "Counts its runs and echoes its text (Pax Exam fixture)");
        Tool tool = call -> {
            if (Boolean.TRUE.equals(call.arguments().get("confirm")) && call.answer("confirm").isEmpty()) {
                return Outcome.needsInput(new InputRequest.Elicitation("confirm", "Go ahead?",
                        Map.of("type", "object", "properties", Map.of("ok", Map.of("type", "boolean")))));
            }
            runs.incrementAndGet();
            String confirmed = call.answer("confirm").map(a -> " (confirmed: " + ((InputResponse.Elicited) a).action()
                    + ")").orElse("");
            return Outcome.text("echo: " + call.arguments().get("text") + confirmed);
        };
        return context.registerService(Tool.class, tool, props);
    }

    /** A policy that hides one tool from every caller, at the given service ranking. */
    public static ServiceRegistration<?> registerPolicyHiding(BundleContext context, String hidden, int ranking) {
        CallPolicy policy = (caller, target) -> target.kind() == Target.Kind.TOOL && target.name().equals(hidden)
                ? Decision.deny(hidden + " is not for " + caller.subject()) : Decision.allow();
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(Constants.SERVICE_RANKING, ranking);
        return context.registerService(CallPolicy.class, policy, props);
    }

    /**
     * A host channel that writes what it is asked to {@code log}: it denies a call whose text is
     * {@code forbidden}, rewrites the text {@code edit-me} to {@code edited}, answers every
     * {@code confirm} question itself, and redacts the word {@code secret} from results.
     */
    public static ServiceRegistration<?> registerHost(BundleContext context, List<String> log) {
        HostChannel host = new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                Object text = invocation.arguments().get("text");
                log.add("admit " + invocation.tool() + " " + text);
                if ("forbidden".equals(text)) {
                    return Admission.deny("the user refused");
                }
                if ("edit-me".equals(text)) {
                    Map<String, Object> edited = new HashMap<>(invocation.arguments());
                    edited.put("text", "edited");
                    return Admission.approve(edited);
                }
                return Admission.approve();
            }

            @Override
            public Optional<InputResponse> answer(Invocation invocation, InputRequest request) {
                log.add("answer " + request.key());
                return Optional.of(new InputResponse.Elicited("accept", Map.of("ok", true)));
            }

            @Override
            public ToolResult review(Invocation invocation, ToolResult result) {
                String text = text(result);
                log.add("review " + text);
                return text.contains("secret") ? ToolResult.text(text.replace("secret", "[redacted]")) : result;
            }

            @Override
            public void record(Invocation invocation, ToolResult delivered) {
                log.add("record " + text(delivered));
            }

            @Override
            public void release(Invocation invocation) {
                log.add("release " + invocation.tool());
            }
        };
        return context.registerService(HostChannel.class, host, new Hashtable<>());
    }

    /** A listener that writes one line per call event: tool, ending, and the stages that decided. */
    public static ServiceRegistration<?> registerListener(BundleContext context, List<String> events) {
        CallListener listener = event -> events.add(event.tool() + " " + event.ending() + " "
                + event.decisions().stream().map(CallProbes::step).collect(Collectors.joining(",", "[", "]")));
        return context.registerService(CallListener.class, listener, new Hashtable<>());
    }

    private static String step(CallEvent.Step step) {
        return step.stage() + (step.allowed() ? "+" : "-");
    }

    /** The text of a {@code tools/call} result's first block. */
    public static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString();
    }

    private static String text(ToolResult result) {
        return result.content().stream().filter(TextContent.class::isInstance).map(c -> ((TextContent) c).text())
                .collect(Collectors.joining());
    }
}
