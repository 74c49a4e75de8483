package io.quiver.launcher;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.wiring.BundleWiring;
import tools.jackson.databind.json.JsonMapper;

/**
 * Makes {@link HostTool}s {@code io.quiver.api.Tool} services inside the framework. The host's class
 * loader may have its own copy of the Quiver API (or none); the framework's bundles see the API
 * bundle's. So the tool is a proxy of the API bundle's {@code Tool} interface, made with that bundle's
 * class loader and registered through its context, which every bundle wired to the API sees as a
 * {@code Tool}; its results are made with the API bundle's {@code Outcome} and {@code ToolResult}.
 * Only JDK types cross: the arguments and answers as maps in, a string (or a question) out.
 */
final class HostTools {

    static final String API_BUNDLE = "io.quiver.api";

    private final BundleContext api;
    private final Class<?> toolType;
    private final Method arguments;
    private final Method text;
    private final Method done;
    private final Method error;
    private final Method answers;
    private final Method needsInput;
    private final Class<?> inputRequest;
    private final Constructor<?> elicitation;

    private HostTools(Bundle apiBundle) throws ReflectiveOperationException {
        this.api = apiBundle.getBundleContext();
        ClassLoader loader = apiBundle.adapt(BundleWiring.class).getClassLoader();
        this.toolType = loader.loadClass("io.quiver.api.Tool");
        Class<?> call = loader.loadClass("io.quiver.api.ToolCall");
        Class<?> outcome = loader.loadClass("io.quiver.api.Outcome");
        Class<?> result = loader.loadClass("io.quiver.api.ToolResult");
        this.arguments = call.getMethod("arguments");
        this.text = outcome.getMethod("text", String.class);
        this.done = outcome.getMethod("done", result);
        this.error = result.getMethod("error", String.class);
        this.answers = call.getMethod("answers");
        this.inputRequest = loader.loadClass("io.quiver.api.input.InputRequest");
        this.needsInput = outcome.getMethod("needsInput", inputRequest.arrayType());
        this.elicitation = loader.loadClass("io.quiver.api.input.InputRequest$Elicitation")
                .getConstructor(String.class, String.class, Map.class, boolean.class);
    }

    /** The bridge into a started framework, or an exception saying why there is none. */
    static HostTools of(BundleContext context) {
        for (Bundle bundle : context.getBundles()) {
            if (API_BUNDLE.equals(bundle.getSymbolicName()) && bundle.getState() == Bundle.ACTIVE) {
                try {
                    return new HostTools(bundle);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw new IllegalStateException("the Quiver API bundle does not offer the Tool types: " + e, e);
                }
            }
        }
        throw new IllegalStateException("no active " + API_BUNDLE + " bundle: is the core feature started?");
    }

    /**
     * Registers a host tool with its {@code _meta} (empty: none); unregistering the returned registration
     * removes it (clients are told).
     */
    ServiceRegistration<?> register(String name, String description, String inputSchema, Map<String, Object> meta,
            HostTool tool) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tool, "tool");
        Object proxy = Proxy.newProxyInstance(toolType.getClassLoader(), new Class<?>[] {toolType},
                new Handler(name, tool));
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", description == null ? "" : description);
        if (inputSchema != null && !inputSchema.isBlank()) {
            props.put("mcp.tool.inputSchema", inputSchema);
        }
        if (meta != null && !meta.isEmpty()) {
            props.put("mcp.tool.meta", JSON.writeValueAsString(meta));
        }
        props.put("quiver.hostTool", Boolean.TRUE);
        return api.registerService(toolType.getName(), proxy, props);
    }

    /** Reads a form's JSON text and writes a tool's metadata; the launcher has Jackson for the features' JSON. */
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The API's answers as plain Java: key to {@code action} and {@code content} (forms; other answers: their text). */
    private static Map<String, Map<String, Object>> answers(Map<?, ?> given) throws ReflectiveOperationException {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : given.entrySet()) {
            Object answer = e.getValue();
            Map<String, Object> plain = new LinkedHashMap<>();
            if (answer.getClass().getSimpleName().equals("Elicited")) {
                plain.put("action", answer.getClass().getMethod("action").invoke(answer));
                plain.put("content", answer.getClass().getMethod("content").invoke(answer));
            } else {
                plain.put("action", "accept");
                plain.put("content", Map.of("value", String.valueOf(answer)));
            }
            out.put(String.valueOf(e.getKey()), plain);
        }
        return out;
    }

    /** Answers {@code Tool.call} with the host tool; the object methods as an object would. */
    private final class Handler implements InvocationHandler {
        private final String name;
        private final HostTool tool;

        Handler(String name, HostTool tool) {
            this.name = name;
            this.tool = tool;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "host tool " + name;
                case "call":
                    break;
                default:
                    throw new UnsupportedOperationException(method.toString());
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> given = (Map<String, Object>) arguments.invoke(args[0]);
            String answer;
            try {
                answer = tool.call(given, answers((Map<?, ?>) answers.invoke(args[0])));
            } catch (HostTool.Failure failure) {
                return done.invoke(null, error.invoke(null, String.valueOf(failure.getMessage())));
            } catch (HostTool.Question question) {
                Object form = elicitation.newInstance(question.key(), String.valueOf(question.getMessage()),
                        JSON.readValue(question.schema() == null ? "{\"type\":\"object\"}" : question.schema(), Map.class),
                        question.sensitive());
                Object[] asked = (Object[]) Array.newInstance(inputRequest, 1);
                asked[0] = form;
                return needsInput.invoke(null, (Object) asked);
            }
            try {
                return text.invoke(null, answer == null ? "" : answer);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
