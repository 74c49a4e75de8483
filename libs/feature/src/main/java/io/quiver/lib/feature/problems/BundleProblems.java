package io.quiver.lib.feature.problems;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRequirement;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Bundles that are installed but not resolved, each with the reason the resolver would give as
 * far as it can be found without side effects: the mandatory requirements that no bundle in the
 * framework can satisfy ({@link FrameworkWiring#findProviders}), or the providers that cannot
 * resolve themselves. Nothing is started, resolved or refreshed here.
 */
public final class BundleProblems {

    /**
     * One bundle that does not work.
     *
     * @param name its label: id, symbolic name and version
     * @param location where it was installed from
     */
    public record Found(String name, String location, String reason) {
    }

    private BundleProblems() {
    }

    /**
     * Bundles whose activator has not returned from its start: {@code STARTING} and not waiting, by their lazy
     * activation policy, for a class to be loaded. Most are seen between the start and its end; one that stays
     * there holds its bundle's lock and whatever its activator waits for.
     */
    public static List<Found> starting(BundleContext context) {
        List<Found> found = new ArrayList<>();
        for (Bundle bundle : context.getBundles()) {
            if (stillStarting(bundle)) {
                found.add(new Found(label(bundle), bundle.getLocation(), "still starting: its activator has not returned"));
            }
        }
        return found;
    }

    /**
     * Whether the bundle's activator is running its start now: {@code STARTING}, and not because it waits, by its lazy
     * activation policy, for a class to be loaded. Such a bundle's lock is held until the activator returns: stopping,
     * updating or uninstalling it waits as long.
     */
    public static boolean stillStarting(Bundle bundle) {
        if (bundle.getState() != Bundle.STARTING || bundle.getBundleId() == 0) {
            return false;
        }
        BundleStartLevel level = bundle.adapt(BundleStartLevel.class);
        return level == null || !level.isActivationPolicyUsed()
                || !Constants.ACTIVATION_LAZY.equals(bundle.getHeaders("").get(Constants.BUNDLE_ACTIVATIONPOLICY));
    }

    /** The bundles installed but not resolved, each with why. */
    public static List<Found> find(BundleContext context) {
        FrameworkWiring wiring = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkWiring.class);
        List<Found> found = new ArrayList<>();
        for (Bundle bundle : context.getBundles()) {
            if (bundle.getState() != Bundle.INSTALLED) {
                continue;
            }
            BundleRevision revision = bundle.adapt(BundleRevision.class);
            String reason = revision == null ? "uninstalled while looking" : reason(revision, wiring);
            found.add(new Found(label(bundle), bundle.getLocation(), reason));
        }
        return found;
    }

    static String reason(BundleRevision revision, FrameworkWiring wiring) {
        List<String> missing = new ArrayList<>();
        List<String> unresolvedProviders = new ArrayList<>();
        for (BundleRequirement requirement : revision.getDeclaredRequirements(null)) {
            if (!isMandatory(requirement)) {
                continue;
            }
            List<BundleCapability> providers = new ArrayList<>(wiring.findProviders(requirement));
            providers.removeIf(c -> c.getRevision().getBundle().getState() == Bundle.UNINSTALLED);
            if (providers.isEmpty()) {
                missing.add(describe(requirement));
            } else if (providers.stream().allMatch(c -> c.getRevision().getBundle().getState() == Bundle.INSTALLED
                    && !c.getRevision().equals(revision))) {
                Bundle provider = providers.iterator().next().getRevision().getBundle();
                unresolvedProviders.add(describe(requirement) + " (only from unresolved bundle "
                        + label(provider) + ")");
            }
        }
        if (!missing.isEmpty()) {
            return "missing " + String.join("; missing ", missing);
        }
        if (!unresolvedProviders.isEmpty()) {
            return "needs " + String.join("; needs ", unresolvedProviders);
        }
        return "not resolved, though every mandatory requirement has a provider (a uses-constraint conflict,"
                + " or nothing asked to resolve it yet); the framework log names the resolver's reason";
    }

    /** Requirements the resolver must satisfy: not optional, effective at resolve time. */
    static boolean isMandatory(BundleRequirement requirement) {
        Map<String, String> directives = requirement.getDirectives();
        String resolution = directives.get(Constants.RESOLUTION_DIRECTIVE);
        String effective = directives.get(Constants.EFFECTIVE_DIRECTIVE);
        return !Constants.RESOLUTION_OPTIONAL.equals(resolution)
                && (effective == null || Constants.EFFECTIVE_RESOLVE.equals(effective));
    }

    /** {@code package x.y [1.0,2)} for imports, the namespace and filter otherwise. */
    static String describe(BundleRequirement requirement) {
        String filter = requirement.getDirectives().getOrDefault(Constants.FILTER_DIRECTIVE, "");
        if (PackageNamespace.PACKAGE_NAMESPACE.equals(requirement.getNamespace())) {
            return "package " + filter;
        }
        return requirement.getNamespace() + " " + filter;
    }

    public static String label(Bundle bundle) {
        String name = bundle.getSymbolicName();
        return bundle.getBundleId() + " " + (name == null ? bundle.getLocation() : name + " " + bundle.getVersion());
    }
}
