package io.quiver.tools.conformance.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/** A bundle context that can only register services; it keeps the ones currently registered. */
final class FakeBundleContext {

    /** A registered service and its properties. */
    record Service(Object service, Map<String, Object> properties) {
    }

    /** The services registered and not yet unregistered, oldest first. */
    final List<Service> services = new CopyOnWriteArrayList<>();

    /** The context to hand to the component. */
    final BundleContext context = proxy(BundleContext.class, (self, method, args) -> {
        if (method.getName().equals("registerService")) {
            return register(args[1], (Dictionary<?, ?>) args[2]);
        }
        return objectMethod(self, method, args);
    });

    private ServiceRegistration<?> register(Object service, Dictionary<?, ?> dictionary) {
        Map<String, Object> properties = new HashMap<>();
        for (Object key : Collections.list(dictionary.keys())) {
            properties.put((String) key, dictionary.get(key));
        }
        Service registered = new Service(service, properties);
        services.add(registered);
        return proxy(ServiceRegistration.class, (self, method, args) -> {
            if (method.getName().equals("unregister")) {
                if (!services.removeIf(s -> s == registered)) {
                    throw new IllegalStateException("already unregistered");
                }
                return null;
            }
            return objectMethod(self, method, args);
        });
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(FakeBundleContext.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static Object objectMethod(Object self, Method method, Object[] args) {
        return switch (method.getName()) {
            case "equals" -> self == args[0];
            case "hashCode" -> System.identityHashCode(self);
            case "toString" -> "fake " + method.getDeclaringClass().getSimpleName();
            default -> throw new UnsupportedOperationException(method.getName());
        };
    }
}
