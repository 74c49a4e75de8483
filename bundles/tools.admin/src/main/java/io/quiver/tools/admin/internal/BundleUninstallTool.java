package io.quiver.tools.admin.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import io.quiver.lib.config.TypedConfig;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * {@code bundle_uninstall}: uninstalls a bundle by id and refreshes the wiring. Refuses the system
 * bundle, the configured protected bundles (the Quiver core among them) and, by default, every
 * bundle a feature installed. Off by default (the {@code admin} feature); admin-only under the
 * default permissions.
 */
@Component(service = Tool.class, configurationPid = AdminConfig.PID)
@McpTool(name = "bundle_uninstall",
        title = "Uninstall an OSGi bundle",
        description = "Uninstalls an OSGi bundle by id (bundles_list gives the ids); its tools leave tools/list. "
                + "The system bundle, the Quiver core and the bundles of the server's features are refused.",
        arguments = BundleUninstallTool.UninstallArguments.class,
        output = BundleInfo.class,
        readOnlyHint = false, destructiveHint = true, idempotentHint = true, openWorldHint = false)
public final class BundleUninstallTool implements Tool {

    /** The arguments of {@code bundle_uninstall}. */
    public record UninstallArguments(@Description("The bundle id, as bundles_list reports it") long id) {
    }

    /** Where the launcher installs feature bundles from. */
    static final String FEATURE_LOCATION_PREFIX = "quiver:";

    private final BundleContext context;
    private final ProtectedBundles protectedBundles;
    private final boolean protectFeatureBundles;

    @Activate
    public BundleUninstallTool(BundleContext context, Map<String, Object> properties) {
        // read as every setting is: a wrong value (protectFeatureBundles = yes) keeps its default, not false; said by
        // bundle_install's component, which reads the same configuration
        AdminConfig config = TypedConfig.read(AdminConfig.class, properties, null).config();
        this.context = context;
        this.protectedBundles = new ProtectedBundles(config.protectedBundles());
        this.protectFeatureBundles = config.protectFeatureBundles();
    }

    @Override
    public Outcome call(ToolCall call) throws InterruptedException {
        long id = call.arguments(UninstallArguments.class).id();
        Bundle bundle = context.getBundle(id);
        if (bundle == null || bundle.getState() == Bundle.UNINSTALLED) {
            return Outcome.done(ToolResult.error("No bundle with id " + id + " (bundles_list gives the ids)."));
        }
        BundleInfo info = Bundles.info(bundle);
        String refusal = refusal(bundle, info);
        if (refusal != null) {
            return Outcome.done(ToolResult.error("Refusing to uninstall bundle " + Bundles.describe(info) + ": "
                    + refusal + "."));
        }
        try {
            bundle.uninstall();
        } catch (BundleException | SecurityException | IllegalStateException e) {
            return Outcome.done(ToolResult.error("Cannot uninstall bundle " + Bundles.describe(info) + ": "
                    + e.getMessage()));
        }
        String text = "Uninstalled bundle " + info.id() + " " + info.symbolicName() + " " + info.version();
        if (!Bundles.refresh(context, bundle)) {
            text += "; the wiring refresh is still running";
        }
        return Outcome.done(new ToolResult(List.of(new TextContent(text)), Bundles.info(bundle), false, Map.of()));
    }

    private String refusal(Bundle bundle, BundleInfo info) {
        if (bundle.getBundleId() == 0) {
            return "it is the system bundle (the framework itself)";
        }
        if (protectedBundles.matches(info.symbolicName())) {
            return "it is protected (protectedBundles of configuration " + AdminConfig.PID + ")";
        }
        if (protectFeatureBundles && info.location().startsWith(FEATURE_LOCATION_PREFIX)) {
            return "a feature installed it; change the features the server starts instead";
        }
        if (bundle.getBundleId() == context.getBundle().getBundleId()) {
            return "it is the bundle of the admin tools themselves";
        }
        return null;
    }
}
