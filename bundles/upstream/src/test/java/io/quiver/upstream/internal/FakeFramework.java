package io.quiver.upstream.internal;

import java.lang.reflect.Proxy;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.Version;

import io.quiver.api.resource.ResourceEvents;

/**
 * The framework as far as {@link Upstream} uses it: a bundle version, and the services registered, kept by
 * type and by the property that names each (a tool's or prompt's name, a resource's URI, a template's URI
 * template), with a journal of registrations; and the server's {@link ResourceEvents}, which notes each update.
 */
final class FakeFramework {

    private static final Map<String, String> KEYS = Map.of("io.quiver.api.Tool", "mcp.tool.name",
            "io.quiver.api.prompt.Prompt", "mcp.prompt.name", "io.quiver.api.resource.Resource", "mcp.resource.uri",
            "io.quiver.api.resource.ResourceTemplate", "mcp.template.uriTemplate", "io.quiver.api.completion.Completer",
            "mcp.completion.ref");

    private final Map<String, Map<String, Object>> services = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Map<String, Object>>> properties = new ConcurrentHashMap<>();
    /** {@code register TYPE KEY} and {@code unregister TYPE KEY}, in order. */
    final List<String> journal = new CopyOnWriteArrayList<>();
    /** The URIs announced through the server's {@link ResourceEvents}, in order. */
    final List<String> updates = new CopyOnWriteArrayList<>();
    /** A name (or URI) whose registration throws, as a stopping bundle's would; null: none. */
    volatile String refused;
    final BundleContext context;

    FakeFramework() {
        Bundle bundle = proxy(Bundle.class, (m, args) -> m.equals("getVersion") ? new Version(1, 0, 0) : null);
        ResourceEvents events = new ResourceEvents() {
            @Override
            public void updated(String uri) {
                updates.add(uri + " (from anyone)");
            }

            @Override
            public void updated(String uri, io.quiver.api.resource.Subscribable source) {
                updates.add(uri);
            }
        };
        ServiceReference<?> eventsReference = proxy(ServiceReference.class, (m, args) -> null);
        context = proxy(BundleContext.class, (m, args) -> switch (m) {
            case "getBundle" -> bundle;
            case "registerService" -> registration(((Class<?>) args[0]).getName(), args[1], (Dictionary<?, ?>) args[2]);
            case "getServiceReference" -> args[0] == ResourceEvents.class ? eventsReference : null;
            case "getService" -> args[0] == eventsReference ? events : null;
            case "ungetService" -> true;
            default -> null;
        });
    }

    /** The services of a type now registered, by name (URI for resources); live. */
    @SuppressWarnings("unchecked")
    <T> Map<String, T> services(Class<T> type) {
        return (Map<String, T>) services.computeIfAbsent(type.getName(), t -> new ConcurrentHashMap<>());
    }

    /** The properties of a registered service, or null. */
    Map<String, Object> properties(Class<?> type, String key) {
        return properties.computeIfAbsent(type.getName(), t -> new ConcurrentHashMap<>()).get(key);
    }

    private ServiceRegistration<?> registration(String type, Object service, Dictionary<?, ?> given) {
        Map<String, Object> props = new ConcurrentHashMap<>();
        for (var keys = given.keys(); keys.hasMoreElements();) {
            Object k = keys.nextElement();
            props.put((String) k, given.get(k));
        }
        String key = (String) props.get(KEYS.get(type));
        if (key != null && key.equals(refused)) {
            throw new IllegalStateException("Invalid BundleContext.");
        }
        String simple = type.substring(type.lastIndexOf('.') + 1);
        services.computeIfAbsent(type, t -> new ConcurrentHashMap<>()).put(key, service);
        properties.computeIfAbsent(type, t -> new ConcurrentHashMap<>()).put(key, props);
        journal.add("register " + simple + " " + key);
        ServiceReference<?> reference = proxy(ServiceReference.class, (m, args) -> switch (m) {
            case "getProperty" -> props.get((String) args[0]);
            case "getPropertyKeys" -> props.keySet().toArray(String[]::new);
            default -> null;
        });
        return proxy(ServiceRegistration.class, (m, args) -> switch (m) {
            case "getReference" -> reference;
            case "unregister" -> {
                services.get(type).remove(key, service);
                properties.get(type).remove(key, props);
                journal.add("unregister " + simple + " " + key);
                yield null;
            }
            case "setProperties" -> {
                Hashtable<?, ?> next = (Hashtable<?, ?>) args[0];
                props.clear();
                next.forEach((k, v) -> props.put((String) k, v));
                journal.add("update " + simple + " " + key);
                yield null;
            }
            default -> null;
        });
    }

    private interface Answer {
        Object answer(String method, Object[] args);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, Answer answer) {
        return (T) Proxy.newProxyInstance(FakeFramework.class.getClassLoader(), new Class<?>[] {type}, (p, m, args) -> {
            switch (m.getName()) {
                case "hashCode":
                    return System.identityHashCode(p);
                case "equals":
                    return p == args[0];
                case "toString":
                    return type.getSimpleName();
                default:
                    return answer.answer(m.getName(), args);
            }
        });
    }
}
