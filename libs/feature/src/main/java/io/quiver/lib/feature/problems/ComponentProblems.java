package io.quiver.lib.feature.problems;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.component.runtime.dto.ReferenceDTO;
import org.osgi.service.component.runtime.dto.UnsatisfiedReferenceDTO;

/**
 * Declarative Services components that are enabled but not working, from the runtime's DTOs:
 * waiting for a required configuration or reference, or failed to activate (with the failure
 * text SCR recorded), and a satisfied component whose class file its bundle lacks (SCR registers its
 * service all the same, fails every time the service is asked for, and records the failure only in
 * its log). Disabled components are left out: someone disabled them on purpose.
 */
public final class ComponentProblems {

    /** One component configuration that is not satisfied or failed. */
    public record Problem(String component, long bundleId, String state, String detail) {
        /** Whether it failed to activate (rather than waits for a reference or a configuration). */
        public boolean failed() {
            return FAILED.equals(state);
        }
    }

    private static final String FAILED = "failed activation";

    private ComponentProblems() {
    }

    /** @param context to look up, through their bundles, the class files of components not active yet */
    public static List<Problem> find(ServiceComponentRuntime scr, BundleContext context) {
        return find(scr.getComponentDescriptionDTOs(), scr::isComponentEnabled, scr::getComponentConfigurationDTOs,
                description -> unloadable(context, description));
    }

    /**
     * @param unloadable why the component's class cannot be loaded, or null when it can (asked of satisfied
     *     components only: an active one has its class)
     */
    static List<Problem> find(Collection<ComponentDescriptionDTO> descriptions,
            Predicate<ComponentDescriptionDTO> enabled,
            Function<ComponentDescriptionDTO, Collection<ComponentConfigurationDTO>> configurations,
            Function<ComponentDescriptionDTO, String> unloadable) {
        List<Problem> problems = new ArrayList<>();
        for (ComponentDescriptionDTO description : descriptions) {
            if (!enabled.test(description)) {
                continue;
            }
            for (ComponentConfigurationDTO configuration : configurations.apply(description)) {
                Problem problem = problem(description, configuration);
                if (problem == null && configuration.state == ComponentConfigurationDTO.SATISFIED) {
                    String why = unloadable.apply(description);
                    problem = why == null ? null : new Problem(description.name, description.bundle == null ? -1
                            : description.bundle.id, FAILED, why);
                }
                if (problem != null) {
                    problems.add(problem);
                }
            }
        }
        return problems;
    }

    static Problem problem(ComponentDescriptionDTO description, ComponentConfigurationDTO configuration) {
        String name = description.name;
        long bundleId = description.bundle == null ? -1 : description.bundle.id;
        switch (configuration.state) {
            case ComponentConfigurationDTO.FAILED_ACTIVATION:
                return new Problem(name, bundleId, FAILED,
                        configuration.failure == null ? "(SCR recorded no failure text)" : rootCause(configuration.failure));
            case ComponentConfigurationDTO.UNSATISFIED_REFERENCE:
                return new Problem(name, bundleId, "unsatisfied reference", unsatisfied(description, configuration));
            case ComponentConfigurationDTO.UNSATISFIED_CONFIGURATION:
                return new Problem(name, bundleId, "unsatisfied configuration",
                        "needs a configuration for PID " + String.join(", ", description.configurationPid));
            default:
                // satisfied or active; a failure text left from an earlier attempt still counts
                return configuration.failure == null ? null
                        : new Problem(name, bundleId, FAILED, rootCause(configuration.failure));
        }
    }

    /**
     * Why the bundle cannot load the component's class, or null when it can (or the bundle is gone): its class file is
     * looked up, not loaded, which would activate a lazily activated bundle (and run weaving hooks) from a diagnostic.
     */
    static String unloadable(BundleContext context, ComponentDescriptionDTO description) {
        Bundle bundle = description.bundle == null ? null : context.getBundle(description.bundle.id);
        if (bundle == null || description.implementationClass == null) {
            return null;
        }
        try {
            return bundle.getResource(description.implementationClass.replace('.', '/') + ".class") != null ? null
                    : "its class " + description.implementationClass + " cannot be loaded:"
                            + " java.lang.ClassNotFoundException: the bundle has no such class";
        } catch (IllegalStateException e) {
            return null; // uninstalled meanwhile
        }
    }

    private static String unsatisfied(ComponentDescriptionDTO description, ComponentConfigurationDTO configuration) {
        List<String> parts = new ArrayList<>();
        if (configuration.unsatisfiedReferences != null) {
            for (UnsatisfiedReferenceDTO reference : configuration.unsatisfiedReferences) {
                String service = reference.name;
                for (ReferenceDTO declared : description.references) {
                    if (declared.name.equals(reference.name)) {
                        service = reference.name + " (" + declared.interfaceName + ")";
                    }
                }
                parts.add("no service for " + service
                        + (reference.target == null || reference.target.isEmpty() ? "" : " matching " + reference.target));
            }
        }
        return parts.isEmpty() ? "a reference is not satisfied" : String.join("; ", parts);
    }

    /**
     * The root cause of a failure text (SCR records a stack trace, often an
     * {@code InvocationTargetException} around the component's own exception): the deepest
     * {@code Caused by:} line, or the first line when there is none.
     */
    static String rootCause(String failure) {
        String[] lines = failure.strip().split("\\R");
        String cause = lines[0].strip();
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.startsWith("Caused by:")) {
                cause = trimmed.substring("Caused by:".length()).strip();
            }
        }
        return cause;
    }
}
