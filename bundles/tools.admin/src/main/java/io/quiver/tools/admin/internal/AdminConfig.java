package io.quiver.tools.admin.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Settings of the admin tools (PID {@code io.quiver.tools.admin}, file
 * {@code etc/io.quiver.tools.admin.cfg}), shared by {@code bundle_install} and
 * {@code bundle_uninstall}.
 *
 * <p>The admin tools are off by default: their bundle is only in the {@code admin} feature, which
 * no default deployment starts. Anyone who can call them can run code in the server, so they are to
 * be admin-only: the permissions bundle's default {@code adminOnly} covers them (authenticated callers
 * need the admin role).
 */
@ObjectClassDefinition(name = "Quiver admin tools",
        description = "Bundle management over MCP (bundles_list, bundle_install, bundle_uninstall). "
                + "Off by default (the admin feature); admin-only under the default permissions.")
public @interface AdminConfig {

    /** The configuration PID. */
    String PID = "io.quiver.tools.admin";

    @AttributeDefinition(name = "Allowed roots",
            description = "Folders bundle_install may install from (absolute paths); a location must be a file "
                    + "path or file: URL inside one of them. Empty (the default): bundle_install refuses every "
                    + "location. Do not name the deploy folder: FileInstall installs what is there by itself.")
    String[] allowedRoots() default {};

    @AttributeDefinition(name = "Protected bundles",
            description = "Symbolic names bundle_uninstall refuses (a trailing * matches any rest), besides the "
                    + "system bundle; by default the engine, the transports and the trust boundary (permissions, "
                    + "authentication, audit): without the permissions bundle no one may see or call anything")
    String[] protectedBundles() default {"io.quiver.api", "io.quiver.core", "io.quiver.transport.*",
        "io.quiver.permissions", "io.quiver.auth.*", "io.quiver.audit", "io.quiver.shell", "io.quiver.tools.admin",
        "org.apache.felix.*"};

    @AttributeDefinition(name = "Operator role",
            description = "bundle_install refuses a bundle that could register an authenticator, a call policy, a host "
                    + "channel or call listener, or write configurations (it imports io.quiver.api.auth, "
                    + "io.quiver.api.call or org.osgi.service.cm) unless the caller has this role (or is the "
                    + "unauthenticated local operator)")
    String operatorRole() default "operator";

    @AttributeDefinition(name = "Protect feature bundles",
            description = "Refuse to uninstall bundles the launcher installed from a feature (location quiver:...): "
                    + "features are changed with the launcher's --features, not at run time")
    boolean protectFeatureBundles() default true;
}
