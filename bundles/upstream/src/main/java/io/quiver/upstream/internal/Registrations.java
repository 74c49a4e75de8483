package io.quiver.upstream.internal;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

import io.quiver.api.Tool;
import io.quiver.api.completion.Completer;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceTemplate;

/**
 * The services one connection to an upstream server registered, by kind and key (a tool's or prompt's exposed
 * name, a resource's URI, a template's URI template), kept matching the server's listings ({@link #sync}). Not
 * thread-safe: the {@link Upstream} calls it holding its lock.
 */
final class Registrations {

    /** What is registered, under which service type, and whether changed properties keep the service. */
    enum Kind {
        TOOLS(Tool.class, true),
        /** Registered anew when their listing changes: the proxy holds the arguments and the server's name. */
        PROMPTS(Prompt.class, false),
        RESOURCES(Resource.class, true),
        TEMPLATES(ResourceTemplate.class, true),
        /** By the prompt's exposed name; anew when the server's name of the prompt changes. */
        PROMPT_COMPLETERS(Completer.class, false),
        TEMPLATE_COMPLETERS(Completer.class, false);

        final Class<?> type;
        final boolean inPlace;

        Kind(Class<?> type, boolean inPlace) {
            this.type = type;
            this.inPlace = inPlace;
        }

        /** The service type, to register any object of it under. */
        @SuppressWarnings("unchecked")
        Class<Object> type() {
            return (Class<Object>) type;
        }
    }

    private final BundleContext context;
    private final Map<Kind, Map<String, ServiceRegistration<?>>> byKind = new EnumMap<>(Kind.class);

    Registrations(BundleContext context) {
        this.context = context;
        for (Kind kind : Kind.values()) {
            byKind.put(kind, new LinkedHashMap<>());
        }
    }

    int count(Kind kind) {
        return byKind.get(kind).size();
    }

    /**
     * Makes the registrations of a kind match what is wanted (keys to properties): unregisters those not wanted,
     * registers those missing ({@code make} gives the service for a key), and gives changed properties to the
     * existing service or registers it anew, as its kind says.
     */
    void sync(Kind kind, Map<String, Hashtable<String, Object>> wanted, Function<String, ?> make) {
        Map<String, ServiceRegistration<?>> have = byKind.get(kind);
        for (var it = have.entrySet().iterator(); it.hasNext();) {
            var e = it.next();
            if (!wanted.containsKey(e.getKey())) {
                unregister(e.getValue());
                it.remove();
            }
        }
        for (Map.Entry<String, Hashtable<String, Object>> w : wanted.entrySet()) {
            ServiceRegistration<?> existing = have.get(w.getKey());
            if (existing != null && !sameProperties(existing, w.getValue())) {
                if (kind.inPlace) {
                    try {
                        existing.setProperties(w.getValue());
                        continue;
                    } catch (IllegalStateException gone) {
                        // registered anew below
                    }
                } else {
                    unregister(existing);
                }
                existing = null;
            }
            if (existing == null) {
                have.put(w.getKey(), context.registerService(kind.type(), make.apply(w.getKey()), w.getValue()));
            }
        }
    }

    /** Unregisters everything. */
    void clear() {
        for (Map<String, ServiceRegistration<?>> registered : byKind.values()) {
            registered.values().forEach(Registrations::unregister);
            registered.clear();
        }
    }

    private static boolean sameProperties(ServiceRegistration<?> registration, Hashtable<String, Object> wanted) {
        try {
            var ref = registration.getReference();
            for (Map.Entry<String, Object> e : wanted.entrySet()) {
                Object have = ref.getProperty(e.getKey());
                if (!(have instanceof String[] a && e.getValue() instanceof String[] b ? Arrays.equals(a, b)
                        : Objects.equals(have, e.getValue()))) {
                    return false;
                }
            }
            for (String key : ref.getPropertyKeys()) {
                if (key.startsWith("mcp.") && !wanted.containsKey(key)) {
                    return false;
                }
            }
            return true;
        } catch (IllegalStateException gone) {
            return false;
        }
    }

    private static void unregister(ServiceRegistration<?> registration) {
        try {
            registration.unregister();
        } catch (IllegalStateException e) {
            // the bundle is stopping
        }
    }
}
