package io.quiver.deployer.internal;

import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
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

    /** Whether a file looks like a feature: JSON with a {@code feature-resource-version} or {@code bundles}. */
    static boolean isFeature(File file) {
        if (!file.getName().endsWith(".json") || !file.isFile()) {
            return false;
        }
        try {
            JsonNode node = JSON.readTree(file);
            return node.isObject() && node.has("id") && (node.has("feature-resource-version") || node.has("bundles"));
        } catch (JacksonException e) {
            return false;
        }
    }

    static FeatureFile read(File file) {
        JsonNode node = JSON.readTree(file);
        String id = node.path("id").asString(file.getName());
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
