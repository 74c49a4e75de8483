package io.quiver.lib.feature;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One OSGi Feature as the launcher uses it: its bundles (in file order) and its configurations
 * (PID, or {@code factoryPid~name}, to properties).
 *
 * @param name           the name it was asked for by ({@code core}, or a file path)
 * @param id             the feature's own {@code id}
 * @param bundles        the bundles, in the order the file lists them
 * @param configurations the configurations, in the order the file lists them
 */
public record Feature(String name, String id, List<FeatureBundle> bundles,
                      Map<String, Map<String, Object>> configurations) {

    public Feature {
        bundles = List.copyOf(bundles);
        configurations = Collections.unmodifiableMap(new LinkedHashMap<>(configurations));
    }
}
