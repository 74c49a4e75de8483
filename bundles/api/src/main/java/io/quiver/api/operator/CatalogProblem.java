package io.quiver.api.operator;

/**
 * A service the catalog could not take.
 *
 * @param serviceId the OSGi service id
 * @param bundleId the bundle that registered it
 * @param reason what is wrong with it
 */
public record CatalogProblem(long serviceId, long bundleId, String reason) {
}
