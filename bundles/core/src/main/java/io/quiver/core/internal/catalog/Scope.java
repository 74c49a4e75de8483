package io.quiver.core.internal.catalog;

import io.quiver.api.CallerIdentity;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a catalog entry is visible: every tenant (global), one tenant, or one project of a tenant.
 * A caller sees the cascade of its place: its project's entries, then its tenant's, then the global
 * ones, the more specific shadowing the less specific under the same name.
 *
 * @param tenant the tenant, or {@code null} for every tenant
 * @param project the project within the tenant, or {@code null} for the tenant as a whole
 */
public record Scope(String tenant, String project) {

    /** Visible to every caller. */
    public static final Scope GLOBAL = new Scope(null, null);

    public Scope {
        if (tenant == null && project != null) {
            throw new IllegalArgumentException("a project needs its tenant");
        }
    }

    /** A tenant's scope. */
    public static Scope tenant(String tenant) {
        return new Scope(tenant, null);
    }

    /**
     * The scopes of some tenants, each as a whole when no projects are given, else those projects of
     * each.
     *
     * @throws IllegalArgumentException naming the first name that is not a tenant or project name
     */
    public static Set<Scope> of(List<String> tenants, List<String> projects) {
        Set<Scope> scopes = new LinkedHashSet<>();
        for (String tenant : tenants) {
            check(tenant, "tenant");
            if (projects.isEmpty()) {
                scopes.add(tenant(tenant));
            }
            for (String project : projects) {
                check(project, "project");
                scopes.add(new Scope(tenant, project));
            }
        }
        return Set.copyOf(scopes);
    }

    private static void check(String name, String what) {
        if (!CallerIdentity.isPlaceName(name)) {
            throw new IllegalArgumentException(what + " '" + name
                    + "' is not 1 to 64 of A-Z a-z 0-9 _ . - starting with a letter or digit");
        }
    }

    /** Whether a caller in the given tenant and project ({@code null}: none) sees this scope's entries. */
    public boolean covers(String tenant, String project) {
        if (this.tenant == null) {
            return true;
        }
        return this.tenant.equals(tenant) && (this.project == null || this.project.equals(project));
    }

    /** Empty for the global scope, else {@code tenant} or {@code tenant/project}. */
    public String label() {
        return tenant == null ? "" : project == null ? tenant : tenant + "/" + project;
    }

    /** How the operator's log names it: nothing for global, else " for tenant t" or " for project t/p". */
    String where() {
        return tenant == null ? "" : project == null ? " for tenant " + tenant : " for project " + label();
    }
}
