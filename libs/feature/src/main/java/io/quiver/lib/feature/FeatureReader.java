package io.quiver.lib.feature;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an OSGi Feature document (JSON, comments allowed): {@code feature-resource-version},
 * {@code id}, {@code bundles} (an id string or an object with {@code id} and optional
 * {@code start-order}) and {@code configurations} (PID to properties, see {@link ConfigValues}).
 * Other members (name, description, extensions, ...) are accepted and ignored.
 */
public final class FeatureReader {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .build();

    private FeatureReader() {
    }

    /**
     * @param name   what the feature was asked for by (for messages and {@link Feature#name()})
     * @param source the JSON document; not closed
     * @throws IllegalArgumentException when the document is not a valid feature
     */
    public static Feature read(String name, InputStream source) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(source);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("feature " + name + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        try {
            return read(name, root);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("feature " + name + ": " + e.getMessage(), e);
        }
    }

    private static Feature read(String name, JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        String version = text(root, "feature-resource-version");
        if (version != null && !version.equals("1.0") && !version.startsWith("1.")) {
            throw new IllegalArgumentException("unsupported feature-resource-version " + version);
        }
        String id = text(root, "id");
        if (id == null) {
            throw new IllegalArgumentException("no id");
        }
        ArtifactId.parse(id);
        return new Feature(name, id, bundles(root.get("bundles")), configurations(root.get("configurations")));
    }

    private static List<FeatureBundle> bundles(JsonNode node) {
        List<FeatureBundle> bundles = new ArrayList<>();
        if (node == null || node.isNull()) {
            return bundles;
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException("bundles is not an array");
        }
        for (JsonNode entry : node.values()) {
            if (entry.isString()) {
                bundles.add(new FeatureBundle(ArtifactId.parse(entry.stringValue()), FeatureBundle.DEFAULT_START_ORDER));
            } else if (entry.isObject()) {
                String id = text(entry, "id");
                if (id == null) {
                    throw new IllegalArgumentException("a bundle entry has no id: " + entry);
                }
                bundles.add(new FeatureBundle(ArtifactId.parse(id), startOrder(id, entry.get("start-order"))));
            } else {
                throw new IllegalArgumentException("a bundle entry is neither an id nor an object: " + entry);
            }
        }
        return bundles;
    }

    private static int startOrder(String id, JsonNode node) {
        if (node == null || node.isNull()) {
            return FeatureBundle.DEFAULT_START_ORDER;
        }
        try {
            // the specification allows metadata values as strings
            return node.isIntegralNumber() ? node.asInt() : Integer.parseInt(node.asString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("start-order of " + id + " is not an integer: " + node, e);
        }
    }

    private static Map<String, Map<String, Object>> configurations(JsonNode node) {
        Map<String, Map<String, Object>> result = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return result;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("configurations is not an object");
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            result.put(e.getKey(), ConfigValues.convert(e.getKey(), e.getValue()));
        }
        return result;
    }

    private static String text(JsonNode node, String member) {
        JsonNode value = node.get(member);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            throw new IllegalArgumentException(member + " is not a non-empty string");
        }
        return value.stringValue().trim();
    }
}
