package io.quiver.lib.feature;

import java.util.Objects;

/**
 * A Maven coordinate as the OSGi Feature specification writes it:
 * {@code groupId:artifactId[:type[:classifier]]:version}.
 */
public record ArtifactId(String groupId, String artifactId, String type, String classifier, String version) {

    public ArtifactId {
        requirePart(groupId, "groupId");
        requirePart(artifactId, "artifactId");
        requirePart(type, "type");
        requirePart(version, "version");
        if (classifier != null && classifier.isEmpty()) {
            classifier = null;
        }
    }

    /** Parses {@code g:a:v}, {@code g:a:type:v} or {@code g:a:type:classifier:v}. */
    public static ArtifactId parse(String id) {
        Objects.requireNonNull(id, "id");
        String[] p = id.trim().split(":", -1);
        try {
            return switch (p.length) {
                case 3 -> new ArtifactId(p[0], p[1], "jar", null, p[2]);
                case 4 -> new ArtifactId(p[0], p[1], p[2], null, p[3]);
                case 5 -> new ArtifactId(p[0], p[1], p[2], p[3], p[4]);
                default -> throw new IllegalArgumentException("expected groupId:artifactId[:type[:classifier]]:version");
            };
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid artifact id '" + id + "': " + e.getMessage(), e);
        }
    }

    /**
     * The file name maven-dependency-plugin's copy-dependencies gives this artifact with
     * {@code prependGroupId}: {@code groupId.artifactId-version[-classifier].type}.
     */
    public String fileName() {
        return groupId + "." + artifactId + "-" + version + (classifier == null ? "" : "-" + classifier) + "." + type;
    }

    /** The path of this artifact inside a Maven repository. */
    public String repositoryPath() {
        return groupId.replace('.', '/') + "/" + artifactId + "/" + version + "/"
                + artifactId + "-" + version + (classifier == null ? "" : "-" + classifier) + "." + type;
    }

    @Override
    public String toString() {
        if (classifier != null) {
            return groupId + ":" + artifactId + ":" + type + ":" + classifier + ":" + version;
        }
        return "jar".equals(type) ? groupId + ":" + artifactId + ":" + version
                : groupId + ":" + artifactId + ":" + type + ":" + version;
    }

    private static void requirePart(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is empty");
        }
        if (value.contains("/") || value.contains("\\") || value.contains("..")) {
            throw new IllegalArgumentException(name + " '" + value + "' is not a plain name");
        }
    }
}
