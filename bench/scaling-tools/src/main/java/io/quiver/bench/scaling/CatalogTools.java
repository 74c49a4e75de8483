package io.quiver.bench.scaling;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;

/**
 * A catalog of {@code tools} trivial tools, {@code bench_tool_00001} to {@code bench_tool_N}, for
 * bench/scaling.sh: {@code tools/list} and {@code tools/call} with a catalog of 10, 1,000 or 10,000
 * tools. N comes from the configuration {@code io.quiver.bench.catalog} (a file
 * {@code etc/io.quiver.bench.catalog.cfg} with {@code tools = N}); without it nothing is registered.
 *
 * <p>The tools are registered as plain {@link Tool} services with the {@code mcp.tool.*} properties,
 * the way {@code @McpTool} would put them on a component, each with a small input schema of its own
 * (so the catalog compiles N schemas, as it would for N real tools). A new configuration replaces
 * the whole set.
 */
@Component(configurationPid = CatalogTools.PID, configurationPolicy = ConfigurationPolicy.REQUIRE)
public final class CatalogTools {

    static final String PID = "io.quiver.bench.catalog";

    /** The configuration: how many tools. */
    public @interface Config {
        int tools() default 0;
    }

    private final List<ServiceRegistration<Tool>> registrations = new ArrayList<>();

    @Activate
    public CatalogTools(BundleContext context, Config config) {
        int n = Math.max(0, config.tools());
        long t0 = System.nanoTime();
        for (int i = 1; i <= n; i++) {
            String name = name(i);
            Hashtable<String, Object> props = new Hashtable<>();
            props.put("mcp.tool.name", name);
            props.put("mcp.tool.description", "Bench catalog tool number " + i + ": answers with its own name. "
                    + "It stands for one of many tools a server may hold.");
            props.put("mcp.tool.inputSchema", "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\","
                    + "\"description\":\"An optional query for tool " + i + "\"}},\"additionalProperties\":false}");
            props.put("mcp.tool.readOnlyHint", Boolean.TRUE);
            Outcome answer = Outcome.text(name);
            registrations.add(context.registerService(Tool.class, call -> answer, props));
        }
        System.err.printf("io.quiver.bench.scaling: registered %d catalog tools in %d ms%n", n,
                (System.nanoTime() - t0) / 1_000_000);
    }

    /** The name of tool {@code i} (from 1): zero-padded, so names sort as numbers do. */
    static String name(int i) {
        return String.format("bench_tool_%05d", i);
    }

    @Deactivate
    void deactivate() {
        for (ServiceRegistration<Tool> r : registrations) {
            try {
                r.unregister();
            } catch (IllegalStateException alreadyGone) {
                // the bundle is stopping
            }
        }
        registrations.clear();
    }
}
