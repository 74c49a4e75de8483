package io.quiver.launcher;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Dictionary;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleWiring;

/**
 * Configuration Admin, used from outside the framework. The launcher's class path does not carry
 * {@code org.osgi.service.cm} (the Config Admin bundle exports it, and the framework wiring stays
 * exactly what the features say), and an embedding application's may carry another copy, so the few calls
 * needed go through the API classes as the Config Admin bundle sees them.
 */
final class ConfigAdminBridge {

    static final String SERVICE = "org.osgi.service.cm.ConfigurationAdmin";
    /** Bound to no single bundle: any bundle may receive the configuration. */
    private static final String ANY_LOCATION = "?";

    private final Object admin;
    private final Method getConfiguration;
    private final Method getFactoryConfiguration;
    private final Method listConfigurations;
    private final Method update;
    private final Method getProperties;
    private final Method delete;

    private ConfigAdminBridge(Object admin, Class<?> adminApi, Class<?> configurationApi) throws NoSuchMethodException {
        this.admin = admin;
        this.getConfiguration = adminApi.getMethod("getConfiguration", String.class, String.class);
        this.getFactoryConfiguration = adminApi.getMethod("getFactoryConfiguration", String.class, String.class, String.class);
        this.listConfigurations = adminApi.getMethod("listConfigurations", String.class);
        this.update = configurationApi.getMethod("update", Dictionary.class);
        this.getProperties = configurationApi.getMethod("getProperties");
        this.delete = configurationApi.getMethod("delete");
    }

    /** The Configuration Admin service if one is registered now. */
    static Optional<ConfigAdminBridge> find(BundleContext context) {
        // all of them, not only those whose API class the system bundle's class loader shares: an embedding
        // application whose class path carries org.osgi.service.cm (the OSGi compendium, say) would otherwise see no
        // Configuration Admin, and the server would run without etc/ (its keys, grants and settings)
        ServiceReference<?>[] refs;
        try {
            refs = context.getAllServiceReferences(SERVICE, null);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e); // no filter
        }
        if (refs == null || refs.length == 0) {
            return Optional.empty();
        }
        // the features' own (a bundle installed at run time registering one would otherwise be asked too), the highest
        // ranked; any other only when no feature provides one (an embedder's framework of its own making)
        ServiceReference<?> ref = Arrays.stream(refs)
                .filter(r -> r.getBundle() != null && r.getBundle().getLocation().startsWith(BundleInstaller.PREFIX))
                .max(Comparator.naturalOrder())
                .orElseGet(() -> Arrays.stream(refs).max(Comparator.naturalOrder()).orElseThrow());
        Object admin = context.getService(ref);
        if (admin == null) {
            return Optional.empty();
        }
        try {
            ClassLoader api = ref.getBundle().adapt(BundleWiring.class).getClassLoader();
            return Optional.of(new ConfigAdminBridge(admin,
                    api.loadClass(SERVICE), api.loadClass("org.osgi.service.cm.Configuration")));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot use " + SERVICE + " from bundle " + ref.getBundle(), e);
        }
    }

    /** Creates or updates a configuration; a PID of the form {@code factoryPid~name} is a named factory configuration. */
    void apply(String pid, Map<String, Object> properties) {
        int tilde = pid.indexOf('~');
        Object configuration = tilde < 0
                ? call(getConfiguration, admin, pid, ANY_LOCATION)
                : call(getFactoryConfiguration, admin, pid.substring(0, tilde), pid.substring(tilde + 1), ANY_LOCATION);
        Map<String, Object> current = asMap((Dictionary<?, ?>) call(getProperties, configuration));
        if (current != null && sameValues(current, properties)) {
            return;
        }
        call(update, configuration, new Hashtable<>(properties));
    }

    /** The properties of a configuration, or null when it does not exist. */
    Map<String, Object> properties(String pid) {
        Object[] found = list("(service.pid=" + escape(pid) + ")");
        return found.length == 0 ? null : asMap((Dictionary<?, ?>) call(getProperties, found[0]));
    }

    /** The properties of every configuration matching an LDAP filter. */
    List<Map<String, Object>> select(String filter) {
        List<Map<String, Object>> result = new ArrayList<>();
        for (Object c : list(filter)) {
            Map<String, Object> p = asMap((Dictionary<?, ?>) call(getProperties, c));
            if (p != null) {
                result.add(p);
            }
        }
        return result;
    }

    /** Deletes the configurations matching an LDAP filter whose properties {@code which} picks; their properties. */
    List<Map<String, Object>> deleteIf(String filter, Predicate<Map<String, Object>> which) {
        List<Map<String, Object>> deleted = new ArrayList<>();
        for (Object c : list(filter)) {
            Map<String, Object> p = asMap((Dictionary<?, ?>) call(getProperties, c));
            if (p != null && which.test(p)) {
                call(delete, c);
                deleted.add(p);
            }
        }
        return deleted;
    }

    private Object[] list(String filter) {
        Object[] found = (Object[]) call(listConfigurations, admin, filter);
        return found == null ? new Object[0] : found;
    }

    private static String escape(String value) {
        StringBuilder b = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (c == '\\' || c == '*' || c == '(' || c == ')') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    private static Map<String, Object> asMap(Dictionary<?, ?> d) {
        if (d == null) {
            return null;
        }
        Map<String, Object> m = new HashMap<>();
        for (Enumeration<?> keys = d.keys(); keys.hasMoreElements(); ) {
            Object k = keys.nextElement();
            m.put(String.valueOf(k), d.get(k));
        }
        return m;
    }

    private static boolean sameValues(Map<String, Object> current, Map<String, Object> wanted) {
        for (Map.Entry<String, Object> e : wanted.entrySet()) {
            if (!Objects.deepEquals(current.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        // Config Admin adds service.pid (and factory.pid); anything else extra means a difference
        return current.keySet().stream()
                .allMatch(k -> wanted.containsKey(k) || k.equals("service.pid") || k.equals("service.factoryPid"));
    }

    private static Object call(Method method, Object target, Object... args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new IllegalStateException(method.getName() + " failed: " + cause, cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
