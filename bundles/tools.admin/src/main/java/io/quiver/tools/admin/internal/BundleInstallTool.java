package io.quiver.tools.admin.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.api.schema.Description;
import io.quiver.lib.config.TypedConfig;
import io.quiver.lib.feature.platform.BundleJar;
import io.quiver.lib.feature.platform.NameHolder;
import io.quiver.lib.feature.platform.PlatformLibraries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Manifest;
import java.util.Optional;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bundle_install}: installs a bundle from a file inside a configured allowed root and starts
 * it. With no {@code allowedRoots} configured (the default) every location is refused. Off by
 * default (the {@code admin} feature) and admin-only under the default permissions, since a bundle
 * runs arbitrary code in the server; a bundle that reaches the trust boundary ({@link TrustBoundary})
 * needs the operator role besides.
 */
@Component(service = {Tool.class, ProblemSource.class}, configurationPid = AdminConfig.PID)
@Designate(ocd = AdminConfig.class)
@McpTool(name = "bundle_install",
        title = "Install an OSGi bundle",
        description = "Installs an OSGi bundle (a jar) from a file path or file: URL inside the server's allowed "
                + "roots and starts it. Its tools appear in tools/list once it runs. If it cannot start (a missing "
                + "dependency, say), it stays installed and the reason is returned. Installing the same location "
                + "again changes nothing.",
        arguments = BundleInstallTool.InstallArguments.class,
        output = BundleInfo.class,
        readOnlyHint = false, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class BundleInstallTool implements Tool, ProblemSource {

    /** The arguments of {@code bundle_install}. */
    public record InstallArguments(
            @Description("Absolute path or file: URL of the bundle jar; it must lie inside an allowed root")
            String location) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(BundleInstallTool.class);

    private final BundleContext context;
    /** What is wrong in the admin tools' settings (both tools'), listed by problems_list and quiver:problems. */
    private final List<Problem> settingsProblems;
    private final AllowedRoots roots;
    private final String operatorRole;
    /** What the server's class path provides in place of bundles: fixed for the framework's life. */
    private final PlatformLibraries platformLibraries;

    @Activate
    public BundleInstallTool(BundleContext context, Map<String, Object> properties) {
        TypedConfig.Result<AdminConfig> read = TypedConfig.read(AdminConfig.class, properties, null);
        AdminConfig config = read.config();
        this.settingsProblems = read.problems().stream().map(p -> new Problem(p.source(), p.reason())).toList();
        settingsProblems.forEach(p -> LOG.warn("{}", p));
        this.context = context;
        this.roots = new AllowedRoots(config.allowedRoots());
        this.operatorRole = config.operatorRole();
        this.platformLibraries = PlatformLibraries.parse(context.getProperty(PlatformLibraries.PROPERTY));
    }

    @Override
    public List<Problem> problems() {
        return settingsProblems;
    }

    @Override
    public Outcome call(ToolCall call) {
        InstallArguments arguments = call.arguments(InstallArguments.class);
        Path file;
        try {
            file = roots.check(arguments.location());
        } catch (IllegalArgumentException e) {
            return Outcome.done(ToolResult.error(e.getMessage()));
        }
        String location = file.toUri().toString();
        Bundle existing = context.getBundle(location);
        if (existing != null) {
            return result("Already installed: bundle " + Bundles.describe(Bundles.info(existing)), existing, false);
        }
        // read once: what is checked is what the framework installs, whatever happens to the file meanwhile
        Bundle bundle;
        try (BundleJar jar = BundleJar.read(location)) {
            String clash = clash(jar, location, call.context().caller());
            if (clash != null) {
                return Outcome.done(ToolResult.error("Refused to install " + location + ": " + clash));
            }
            bundle = jar.install(context, location);
        } catch (IOException e) {
            return Outcome.done(ToolResult.error("Refused to install " + location + ": it is not a readable jar ("
                    + e.getMessage() + ")"));
        } catch (BundleException | SecurityException | IllegalStateException e) {
            return Outcome.done(ToolResult.error("Cannot install " + location + ": " + e.getMessage()));
        }
        if (bundle.getHeaders("").get(Constants.FRAGMENT_HOST) != null) {
            return result("Installed fragment bundle " + Bundles.describe(Bundles.info(bundle))
                    + " (fragments attach to their host and are never started)", bundle, false);
        }
        try {
            bundle.start();
        } catch (BundleException | SecurityException | IllegalStateException e) {
            return result("Installed bundle " + Bundles.describe(Bundles.info(bundle)) + " but it cannot start: "
                    + e.getMessage() + ". It stays installed; install what it needs, or remove it with "
                    + "bundle_uninstall {\"id\": " + bundle.getBundleId() + "}.", bundle, true);
        }
        return result("Installed and started bundle " + Bundles.describe(Bundles.info(bundle)), bundle, false);
    }

    /**
     * Why a jar must not be installed next to what runs (its symbolic name is already installed:
     * the platform, a feature, another bundle), or null. A second bundle of a name would run beside
     * the first, and one of the platform's would take the server over.
     */
    private String clash(BundleJar jar, String location, CallerIdentity caller) {
        Manifest manifest = jar.manifest();
        String name = jar.symbolicName();
        List<String> reached = manifest == null ? List.of() : TrustBoundary.reached(manifest, this::installed);
        if (name == null) {
            return "it is not an OSGi bundle (no Bundle-SymbolicName in its manifest)";
        }
        // the unauthenticated local caller is the operator of a loopback-only server
        boolean operator = !caller.authenticated() || caller.roles().contains(operatorRole);
        if (!reached.isEmpty() && !operator) {
            return "it could change who callers are or what they may do (it reaches " + String.join(", ", reached)
                    + "); only a caller with the role " + operatorRole + " may install such a bundle";
        }
        Optional<NameHolder> holder = NameHolder.of(platformLibraries, context, name,
                b -> location.equals(b.getLocation()));
        if (holder.isEmpty()) {
            return null;
        }
        NameHolder h = holder.get();
        String where = h.library() != null ? name + " " + h.library().version() + ", from the server's class path"
                : "bundle " + h.bundle().getBundleId() + ", " + h.bundle().getLocation();
        return name + " is already installed" + (h.platform() ? " as part of the running platform" : "")
                + " (" + where + ")";
    }

    /** The main headers of the installed bundles of a symbolic name, each with its id ({@link TrustBoundary#reached}). */
    private List<Map<String, String>> installed(String symbolicName) {
        List<Map<String, String>> found = new ArrayList<>();
        for (Bundle b : context.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())
                    || (b.getBundleId() == 0 && symbolicName.equals(TrustBoundary.SYSTEM_BUNDLE))) {
                Map<String, String> headers = new HashMap<>();
                Dictionary<String, String> raw = b.getHeaders("");
                for (Enumeration<String> keys = raw.keys(); keys.hasMoreElements();) {
                    String key = keys.nextElement();
                    headers.put(key, raw.get(key));
                }
                headers.put(TrustBoundary.BUNDLE_ID, Long.toString(b.getBundleId()));
                found.add(headers);
            }
        }
        return found;
    }

    private static Outcome result(String text, Bundle bundle, boolean isError) {
        return Outcome.done(new ToolResult(List.of(new TextContent(text)), Bundles.info(bundle), isError, Map.of()));
    }
}
