package io.quiver.api.operator;

/**
 * One tool service in the catalog.
 *
 * @param name the tool name
 * @param description its description
 * @param serviceId the OSGi service id
 * @param ranking the service ranking
 * @param bundleId the id of the bundle that registered it
 */
public record CatalogEntry(String name, String description, long serviceId, int ranking, long bundleId) {
}
