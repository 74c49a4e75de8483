package io.quiver.deployer.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.apache.felix.framework.Felix;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * A real framework for the deployer's tests, in a storage that may be kept between runs (as {@code --data}
 * keeps it), with the deploy folder set as the launcher sets it, and an in-memory Configuration Admin.
 */
final class Framework implements AutoCloseable {

    final Felix felix;
    final Path deploy;

    Framework(Path storage, Path deploy) throws Exception {
        this.deploy = deploy;
        Files.createDirectories(deploy);
        felix = new Felix(Map.of("org.osgi.framework.storage", storage.toString(),
                "org.osgi.framework.storage.clean", "none", FeatureInstaller.DEPLOY_FOLDER, deploy.toString()));
        felix.init();
        felix.start();
    }

    BundleContext context() {
        return felix.getBundleContext();
    }

    /** The installed bundle of a symbolic name, or null. */
    Bundle bundle(String symbolicName) {
        for (Bundle b : context().getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                return b;
            }
        }
        return null;
    }

    @Override
    public void close() throws Exception {
        felix.stop();
        felix.waitForStop(10_000);
    }

    /** A bundle jar of a manifest (the symbolic name and version, and any other headers given as pairs) and its
     * {@code Bundle-Activator} class, if any. */
    static byte[] jar(String symbolicName, String version, String... headers) throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", symbolicName);
        main.putValue("Bundle-Version", version);
        for (int i = 0; i < headers.length; i += 2) {
            main.putValue(headers[i], headers[i + 1]);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(out, manifest)) {
            String activator = main.getValue("Bundle-Activator");
            if (activator != null) { // a class of the tests, copied in
                String entry = activator.replace('.', '/') + ".class";
                jar.putNextEntry(new JarEntry(entry));
                try (InputStream in = Framework.class.getClassLoader().getResourceAsStream(entry)) {
                    in.transferTo(jar);
                }
                jar.closeEntry();
            }
        }
        return out.toByteArray();
    }

    /** A Configuration Admin of configurations in a map by PID ({@code factory~name} for factory ones). */
    static ConfigurationAdmin configurationAdmin(Map<String, Dictionary<String, Object>> store) {
        return (ConfigurationAdmin) Proxy.newProxyInstance(Framework.class.getClassLoader(),
                new Class<?>[] {ConfigurationAdmin.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getConfiguration" -> configuration(store, (String) args[0]);
                    case "getFactoryConfiguration" -> configuration(store, args[0] + "~" + args[1]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static Configuration configuration(Map<String, Dictionary<String, Object>> store, String pid) {
        return (Configuration) Proxy.newProxyInstance(Framework.class.getClassLoader(),
                new Class<?>[] {Configuration.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getPid" -> pid;
                    case "getProperties" -> store.get(pid) == null ? null : new Hashtable<>(copy(store.get(pid)));
                    case "update" -> {
                        @SuppressWarnings("unchecked")
                        Dictionary<String, Object> p = (Dictionary<String, Object>) args[0];
                        store.put(pid, new Hashtable<>(copy(p)));
                        yield null;
                    }
                    case "delete" -> {
                        store.remove(pid);
                        yield null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static Map<String, Object> copy(Dictionary<String, Object> d) {
        Map<String, Object> m = new HashMap<>();
        for (var keys = d.keys(); keys.hasMoreElements();) {
            String k = keys.nextElement();
            m.put(k, d.get(k));
        }
        return m;
    }
}
