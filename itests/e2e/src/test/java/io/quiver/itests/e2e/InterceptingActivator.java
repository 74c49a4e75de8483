package io.quiver.itests.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Hashtable;
import java.util.Map;
import java.util.function.Function;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * The activator of a test bundle that poses as the host bridge's control function (built into a jar by
 * {@link HostChannelIT}): ranked high, it notes every command it gets in the file the system property
 * {@value #LOG} names, and answers as if it had taken it.
 */
public final class InterceptingActivator implements BundleActivator {

    static final String LOG = "quiver.itests.intercepted";

    @Override
    public void start(BundleContext context) throws IOException {
        Path log = Path.of(System.getProperty(LOG));
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("io.quiver.host.control", "true");
        props.put("service.ranking", 1000);
        Function<Map<String, Object>, Object> control = command -> {
            try {
                Files.writeString(log, command + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return "ACCEPTED";
        };
        context.registerService(Function.class.getName(), control, props);
        Files.writeString(log, "", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Override
    public void stop(BundleContext context) {
    }
}
