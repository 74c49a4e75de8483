package io.quiver.launcher;

import io.quiver.lib.feature.ArtifactId;
import io.quiver.lib.feature.platform.PlatformLibraries;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.jar.Attributes;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Libraries the launcher's own class path carries that the features also name as bundles: Jackson,
 * which the launcher reads the feature files and bridges the host tools with. When the class path
 * holds the very version a feature names, the framework takes the library from there: the system
 * bundle exports what the bundle would (the bundle jar's own {@code Export-Package} header) and the
 * bundle is not installed. Its classes are then loaded once, by one loader, and come from the class
 * data archive; a start skips installing, resolving and defining them (~0.1 s, docs/BENCHMARKS.md).
 * It is all three of Jackson's jars or none. A feature that names another version gets its bundle as
 * before, and so does every feature when the system property {@value #PROPERTY} is {@code false}. The
 * bundles are told which libraries these are ({@link PlatformLibraries}).
 */
final class SharedLibraries {

    private static final Logger LOG = LoggerFactory.getLogger(SharedLibraries.class);

    /** {@code false}: install every feature bundle, Jackson's too. */
    static final String PROPERTY = "quiver.sharedLibraries";

    /** The libraries that may come from the class path, as (groupId, artifactId). */
    static final List<String[]> CANDIDATES = List.of(
            new String[] {"com.fasterxml.jackson.core", "jackson-annotations"},
            new String[] {"tools.jackson.core", "jackson-core"},
            new String[] {"tools.jackson.core", "jackson-databind"});

    static final SharedLibraries NONE = new SharedLibraries(PlatformLibraries.NONE, "");

    /** The shared bundles, as the launcher embeds them (type jar, no classifier), also named to the bundles. */
    private final PlatformLibraries libraries;
    private final String exports;

    SharedLibraries(PlatformLibraries libraries, String exports) {
        this.libraries = libraries;
        this.exports = exports;
    }

    /**
     * The candidates, when {@code loader} carries each of them (its Maven {@code pom.properties} says
     * which version) at the version the launcher embeds as a bundle (whose exports are read from it);
     * otherwise none of them: one class space or none, since databind from the class path would read
     * the class path's annotations while a bundle of other annotations served the tools' records.
     */
    static SharedLibraries find(ClassLoader loader, BundleRepository repository) {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            return NONE;
        }
        BundleRepository embedded = repository.embeddedOnly(); // the versions the features name, no other
        List<PlatformLibraries.Library> found = new ArrayList<>();
        StringJoiner exports = new StringJoiner(",");
        for (String[] candidate : CANDIDATES) {
            Optional<ArtifactId> id = classPathVersion(loader, candidate[0], candidate[1])
                    .map(version -> new ArtifactId(candidate[0], candidate[1], "jar", null, version));
            Optional<Headers> headers = id.flatMap(embedded::find).flatMap(SharedLibraries::headers);
            if (headers.isEmpty()) {
                return NONE;
            }
            found.add(new PlatformLibraries.Library(headers.get().symbolicName(), headers.get().version(), id.get().toString()));
            exports.add(headers.get().exportPackage());
        }
        return new SharedLibraries(new PlatformLibraries(found), exports.toString());
    }

    /** The packages the system bundle exports for the shared libraries ({@code Export-Package} syntax), or "". */
    String exports() {
        return exports;
    }

    /** The libraries, as the framework property {@value PlatformLibraries#PROPERTY} names them to the bundles. */
    PlatformLibraries libraries() {
        return libraries;
    }

    /** Whether the class path provides this bundle (same group, artifact and version, a plain jar). */
    boolean provides(ArtifactId id) {
        return libraries.provides(id.toString()); // g:a:v only for a plain jar
    }

    /** The plan without the bundles the class path provides. */
    LaunchPlan without(LaunchPlan plan) {
        List<LaunchPlan.Step> rest = new ArrayList<>();
        for (LaunchPlan.Step step : plan.bundles()) {
            if (provides(step.id())) {
                LOG.debug("{} (feature {}) comes from the launcher's class path", step.id(), step.feature());
            } else {
                rest.add(step);
            }
        }
        return rest.size() == plan.bundles().size() ? plan : new LaunchPlan(rest, plan.configurations());
    }

    static Optional<String> classPathVersion(ClassLoader loader, String groupId, String artifactId) {
        String resource = "META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            Properties p = new Properties();
            p.load(in);
            return Optional.ofNullable(p.getProperty("version")).map(String::trim).filter(v -> !v.isEmpty());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** What a shared bundle's manifest says of it. */
    private record Headers(String symbolicName, String version, String exportPackage) {
    }

    private static Optional<Headers> headers(BundleRepository.Source source) {
        try (JarInputStream jar = new JarInputStream(source.open(), false)) {
            Manifest manifest = jar.getManifest();
            if (manifest == null) {
                return Optional.empty();
            }
            Attributes main = manifest.getMainAttributes();
            String name = main.getValue("Bundle-SymbolicName");
            String header = main.getValue("Export-Package");
            if (name == null || header == null || header.isBlank()) {
                return Optional.empty();
            }
            String version = main.getValue("Bundle-Version");
            return Optional.of(new Headers(name.split(";", 2)[0].trim(), version == null ? "0.0.0" : version.trim(),
                    header));
        } catch (IOException e) {
            LOG.debug("Cannot read the manifest of {}: {}", source.location(), e.toString());
            return Optional.empty();
        }
    }
}
