package io.quiver.lib.feature;

import java.util.Objects;

/**
 * A bundle entry of a feature.
 *
 * @param id         the bundle's Maven coordinate
 * @param startOrder the {@code start-order} metadata: lower starts first; bundles of equal order
 *                   start in feature order, then in file order
 */
public record FeatureBundle(ArtifactId id, int startOrder) {

    /** The start order of a bundle entry that does not say. */
    public static final int DEFAULT_START_ORDER = 20;

    public FeatureBundle {
        Objects.requireNonNull(id, "id");
        if (startOrder < 0) {
            throw new IllegalArgumentException("start-order of " + id + " is negative: " + startOrder);
        }
    }
}
