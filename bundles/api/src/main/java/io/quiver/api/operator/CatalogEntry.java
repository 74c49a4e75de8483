package io.quiver.api.operator;

/**
 * One tool service in the catalog.
 *
 * @param name the tool name
 * @param description its description
 * @param serviceId the OSGi service id
 * @param ranking the service ranking
 * @param bundleId the id of the bundle that registered it
 * @param scope where it is visible: empty for every tenant, {@code tenant} for one tenant,
 *     {@code tenant/project} for one project (since 1.2)
 */
public record CatalogEntry(String name, String description, long serviceId, int ranking, long bundleId,
        String scope) {

    /** An entry visible to every tenant. */
    public CatalogEntry(String name, String description, long serviceId, int ranking, long bundleId) {
        this(name, description, serviceId, ranking, bundleId, "");
    }
}
