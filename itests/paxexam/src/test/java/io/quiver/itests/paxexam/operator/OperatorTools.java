package io.quiver.itests.paxexam.operator;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import java.util.Hashtable;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;

/** Tool services the operator tests register from the probe. */
public final class OperatorTools {

    private OperatorTools() {
    }

    /** A tool that always answers {@code text}, with the given {@code service.ranking}. */
    public static ServiceRegistration<?> registerText(BundleContext context, String name, int ranking, String text) {
        return register(context, name, "Answers '" + text + "' (ranking " + ranking + ", Pax Exam fixture)", ranking, text);
    }

    /** A tool that always answers {@code text} (a long one, say), described as {@code description}. */
    public static ServiceRegistration<?> registerText(BundleContext context, String name, String description, String text) {
        return register(context, name, description, 0, text);
    }

    private static ServiceRegistration<?> register(BundleContext context, String name, String description, int ranking,
            String text) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", description);
        props.put(Constants.SERVICE_RANKING, ranking);
        Tool tool = call -> Outcome.text(text);
        return context.registerService(Tool.class, tool, props);
    }

    /** The {@code service.id} of a registration, as the shell prints it. */
    public static String serviceId(ServiceRegistration<?> registration) {
        return String.valueOf(registration.getReference().getProperty(Constants.SERVICE_ID));
    }
}
