package io.quiver.itests.paxexam.config;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.cleanCaches;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.frameworkStartLevel;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.systemPackages;
import static org.ops4j.pax.exam.CoreOptions.workingDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ops4j.pax.exam.Constants;
import org.ops4j.pax.exam.Option;

/**
 * The Pax Exam configuration every test class shares: a Felix with the bundles of the named
 * features (read from the feature files, the one source of truth for the deployment), the HTTP
 * service on an OS-assigned port of 127.0.0.1, and slf4j exported by the system bundle.
 *
 * <p>Runs on the JUnit side (outside the framework): it may use only the test class path.
 */
public final class QuiverOptions {

    /** The features every in-framework test runs on. */
    public static final String[] FEATURES = {"core", "http"};

    /** The org.slf4j version Pax Exam 4.14's bundles accept ([1.4,2) and [1.7,2)). */
    private static final String SLF4J_1_FOR_PAX_EXAM = "1.7.36";

    private QuiverOptions() {
    }

    public static Option[] framework(Class<?> testClass) {
        return framework(testClass, new String[0]);
    }

    /**
     * The same framework with the bundles of more features after {@link #FEATURES} (e.g. {@code shell},
     * {@code admin}); a bundle two features list is installed once, at the lower start-order.
     */
    public static Option[] framework(Class<?> testClass, String... extraFeatures) {
        Path bundles = dir("quiver.itest.bundles", "target/bundles");
        Path features = dir("quiver.itest.features", "target/features/features");
        Path work = dir("quiver.itest.work", "target/paxexam").resolve(testClass.getSimpleName());
        Path load = work.resolve("load");
        Path fileinstallTmp = work.resolve("fileinstall-tmp");
        Path etc = work.resolve("etc");
        try {
            Files.createDirectories(load);
            Files.createDirectories(fileinstallTmp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String slf4j = System.getProperty("quiver.itest.slf4j.version");
        if (slf4j == null || slf4j.isBlank()) {
            throw new IllegalStateException("quiver.itest.slf4j.version is not set: run the tests through maven");
        }

        List<Option> options = new ArrayList<>();
        options.add(workingDirectory(work.toString()));
        options.add(cleanCaches(true));
        // The launcher's arrangement: slf4j-api and its backend (slf4j-simple) live on the class path
        // and the system bundle exports the API, so no bundle needs the osgi.serviceloader extender.
        // Pax Exam's own bundles import org.slf4j [1.4,2): the same package is exported a second time
        // as 1.7.36 for them (slf4j 2's org.slf4j is a compatible superset of 1.7's).
        options.add(systemPackages(
                "org.slf4j;version=\"" + slf4j + "\"",
                "org.slf4j.spi;version=\"" + slf4j + "\"",
                "org.slf4j.event;version=\"" + slf4j + "\"",
                "org.slf4j.helpers;version=\"" + slf4j + "\"",
                "org.slf4j;version=\"" + SLF4J_1_FOR_PAX_EXAM + "\""));
        // Port 0: Felix HTTP picks a free port and publishes it in HttpServiceRuntime's osgi.http.endpoint.
        options.add(frameworkProperty("org.osgi.service.http.port").value("0"));
        options.add(frameworkProperty("org.apache.felix.http.host").value("127.0.0.1"));
        options.add(frameworkProperty("felix.fileinstall.dir").value(load.toString()));
        options.add(frameworkProperty("felix.fileinstall.tmpdir").value(fileinstallTmp.toString()));
        // where the upstream bundle reads mcp-servers.json (a test makes the folder and writes it there; the bundle polls it)
        options.add(frameworkProperty("quiver.etc").value(etc.toString()));
        // The probe plays the embedder here: the engine takes a host channel only from bundles the
        // embedder allows (CallSpisIT registers one from the probe, and one from a bundle not allowed)
        options.add(frameworkProperty("quiver.host.bundles").value("io.quiver.host, PAXEXAM-PROBE-*"));
        options.add(junitBundles());

        int highest = Constants.START_LEVEL_TEST_BUNDLE;
        Map<Path, Integer> startLevels = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(List.of(FEATURES));
        names.addAll(List.of(extraFeatures));
        for (String feature : names) {
            for (FeatureBundles.Entry entry : FeatureBundles.read(features, feature, bundles)) {
                startLevels.merge(entry.jar(), entry.startOrder(), Math::min);
            }
        }
        for (Map.Entry<Path, Integer> entry : startLevels.entrySet()) {
            options.add(bundle(entry.getKey().toUri().toString()).startLevel(entry.getValue()));
            highest = Math.max(highest, entry.getValue());
        }
        // Pax Exam waits for this start level before it installs the probe (at START_LEVEL_TEST_BUNDLE).
        options.add(frameworkStartLevel(highest));
        return options.toArray(new Option[0]);
    }

    private static Path dir(String property, String fallback) {
        String value = System.getProperty(property);
        return Paths.get(value == null || value.isBlank() ? fallback : value).toAbsolutePath();
    }
}
