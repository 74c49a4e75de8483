package io.quiver.launcher;

import io.quiver.lib.feature.Feature;
import io.quiver.lib.feature.FeatureReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds features: a plain name ({@code core}) is {@code features/<name>.json} inside the launcher;
 * anything ending in {@code .json} is a file.
 */
public final class FeatureCatalog {

    static final String FOLDER = "features/";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private final ClassLoader loader;

    public FeatureCatalog(ClassLoader loader) {
        this.loader = loader;
    }

    public static FeatureCatalog embedded() {
        return new FeatureCatalog(FeatureCatalog.class.getClassLoader());
    }

    /** Reads the named features, in the order given; {@code core} first if it is missing. */
    public List<Feature> load(List<String> names) throws IOException {
        List<String> ordered = new ArrayList<>(names);
        if (!ordered.contains("core")) {
            ordered.add(0, "core");
        }
        List<Feature> features = new ArrayList<>();
        for (String name : ordered.stream().distinct().toList()) {
            features.add(load(name));
        }
        return features;
    }

    public Feature load(String name) throws IOException {
        if (name.endsWith(".json")) {
            Path file = Path.of(name);
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("feature file " + file.toAbsolutePath() + " does not exist");
            }
            try (InputStream in = Files.newInputStream(file)) {
                return FeatureReader.read(name, in);
            }
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is neither a feature name nor a .json file");
        }
        try (InputStream in = loader.getResourceAsStream(FOLDER + name + ".json")) {
            if (in == null) {
                throw new IllegalArgumentException("no feature named '" + name + "'; available: "
                        + String.join(", ", available()));
            }
            return FeatureReader.read(name, in);
        }
    }

    /** The names of the features inside the launcher, sorted. */
    public List<String> available() {
        TreeSet<String> names = new TreeSet<>();
        try {
            // core.json is always there: it tells where the folder is (a jar or a directory)
            URL core = loader.getResource(FOLDER + "core.json");
            if (core == null) {
                return List.of();
            }
            if ("jar".equals(core.getProtocol())) {
                JarURLConnection c = (JarURLConnection) core.openConnection();
                c.setUseCaches(true);
                c.getJarFile().stream()
                        .map(e -> e.getName())
                        .filter(n -> n.startsWith(FOLDER) && n.endsWith(".json") && n.indexOf('/', FOLDER.length()) < 0)
                        .forEach(n -> names.add(n.substring(FOLDER.length(), n.length() - ".json".length())));
            } else if ("file".equals(core.getProtocol())) {
                try (Stream<Path> files = Files.list(Path.of(core.toURI()).getParent())) {
                    files.map(p -> p.getFileName().toString())
                            .filter(n -> n.endsWith(".json"))
                            .forEach(n -> names.add(n.substring(0, n.length() - ".json".length())));
                }
            } else {
                names.add("core");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return Collections.unmodifiableList(new ArrayList<>(names));
    }
}
