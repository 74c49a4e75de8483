package io.quiver.deployer.internal;

import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An OSGi Feature file (the parts Quiver uses): its id, bundles by Maven coordinates with a start
 * order, and configurations by PID ({@code factoryPid~name} for factory configurations).
 */
record FeatureFile(String id, List<BundleRef> bundles, Map<String, Map<String, Object>> configurations) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One bundle: {@code groupId:artifactId:version}. */
    record BundleRef(String groupId, String artifactId, String version, int startOrder) {
        String coordinates() {
            return groupId + ":" + artifactId + ":" + version;
        }
    }

    /**
     * Reads a feature file.
     *
     * @throws IllegalArgumentException when the JSON is not a feature (an object with an id and a
     *     {@code feature-resource-version} or {@code bundles})
     * @throws tools.jackson.core.JacksonException when it is not JSON
     */
    static FeatureFile read(File file) {
        JsonNode node = JSON.readTree(file);
        if (node == null || !node.isObject() || !node.path("id").isString()
                || !(node.has("feature-resource-version") || node.has("bundles"))) {
            throw new IllegalArgumentException("not an OSGi feature: a feature file is a JSON object with an \"id\""
                    + " and \"bundles\"");
        }
        String id = node.path("id").stringValue();
        List<BundleRef> bundles = new ArrayList<>();
        for (JsonNode b : node.path("bundles")) {
            String coordinates = b.isString() ? b.stringValue() : b.path("id").asString("");
            String[] parts = coordinates.split(":");
            if (parts.length < 3) {
                throw new IllegalArgumentException("feature " + id + ": bundle id '" + coordinates
                        + "' is not groupId:artifactId:version");
            }
            int order = b.isObject() ? parseInt(b.path("start-order").asString("0")) : 0;
            bundles.add(new BundleRef(parts[0], parts[1], parts[parts.length - 1], order));
        }
        bundles.sort(Comparator.comparingInt(BundleRef::startOrder));
        Map<String, Map<String, Object>> configurations = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> c : node.path("configurations").properties()) {
            configurations.put(c.getKey(), ConfigValues.convert(c.getValue()));
        }
        return new FeatureFile(id, List.copyOf(bundles), configurations);
    }

    private static int parseInt(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
