package io.quiver.tools.admin.internal;

import io.quiver.api.schema.Description;

/** One bundle as the admin tools report it (structured content). */
@Description("An OSGi bundle")
public record BundleInfo(
        @Description("Bundle id; bundle_uninstall takes it") long id,
        @Description("Bundle-SymbolicName (empty for a bundle without one)") String symbolicName,
        @Description("Bundle-Version") String version,
        @Description("INSTALLED, RESOLVED, STARTING, ACTIVE, STOPPING or UNINSTALLED") String state,
        @Description("Where the bundle was installed from") String location) {
}
