package io.quiver.launcher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bundles an earlier run installed and started at run time (from {@code deploy/}, with {@code bundle_install}) in a
 * kept storage ({@code --data}). The framework would start them itself as it starts, one after the other on the
 * thread the start waits for: one whose activator never returns held every later start of the server for good. They
 * are held back instead (their persistent start cleared before the framework starts), and started again once the
 * platform runs, each on a thread of its own, the launcher waiting for them at most {@value #TIMEOUT_PROPERTY}
 * ({@value #DEFAULT_TIMEOUT_MS} ms). Which ones to start again is written to {@value #FILE} in the storage before any
 * is held back, and removed once each has been started: a server killed in between starts them at its next start.
 */
final class KeptBundles {

    private static final Logger LOG = LoggerFactory.getLogger(KeptBundles.class);

    static final String FILE = "quiver-restart.txt";
    static final String TIMEOUT_PROPERTY = "quiver.deployedStartTimeoutMs";
    static final long DEFAULT_TIMEOUT_MS = 30_000;

    static final KeptBundles NONE = new KeptBundles(null, Map.of());

    private final Path file;
    /** Each held bundle, and whether it starts by its activation policy (lazily). */
    private final Map<Bundle, Boolean> held;

    private KeptBundles(Path file, Map<Bundle, Boolean> held) {
        this.file = file;
        this.held = held;
    }

    /**
     * Holds back every bundle not of the features ({@link BundleInstaller#PREFIX}) that is to start with the framework,
     * and those a killed earlier run held back. Call before the framework starts.
     */
    static KeptBundles holdBack(BundleContext context, Path storage) throws IOException {
        Path file = storage.resolve(FILE);
        Set<String> locations = new LinkedHashSet<>(read(file));
        for (Bundle bundle : context.getBundles()) {
            if (bundle.getBundleId() != 0 && !bundle.getLocation().startsWith(BundleInstaller.PREFIX)
                    && bundle.adapt(BundleStartLevel.class).isPersistentlyStarted()) {
                locations.add(bundle.getLocation());
            }
        }
        if (locations.isEmpty()) {
            return NONE;
        }
        write(file, locations);
        Map<Bundle, Boolean> held = new LinkedHashMap<>();
        for (String location : locations) {
            Bundle bundle = context.getBundle(location);
            if (bundle == null) {
                continue; // uninstalled since
            }
            try {
                boolean lazily = bundle.adapt(BundleStartLevel.class).isActivationPolicyUsed();
                bundle.stop(); // not started yet: this only clears its persistent start
                held.put(bundle, lazily);
            } catch (BundleException | IllegalStateException e) {
                LOG.warn("Cannot hold back {} before the framework starts: {}", location, e.toString());
            }
        }
        return new KeptBundles(file, held);
    }

    /**
     * Starts the held bundles again (those still installed: the deployer uninstalls the bundles of files deleted
     * meanwhile), each on a thread of its own, waiting at most {@code timeoutMs} for all of them.
     *
     * @return a line for each that did not start, or has not finished starting
     */
    List<String> restart(long timeoutMs) throws IOException {
        if (file == null) {
            return List.of();
        }
        Map<Bundle, FutureTask<Void>> starts = new LinkedHashMap<>();
        for (Map.Entry<Bundle, Boolean> h : held.entrySet()) {
            Bundle bundle = h.getKey();
            if (bundle.getState() == Bundle.UNINSTALLED) {
                continue;
            }
            int options = h.getValue() ? Bundle.START_ACTIVATION_POLICY : 0;
            starts.put(bundle, Quiver.inBackground("quiver-restart-" + bundle.getBundleId(), () -> {
                bundle.start(options);
                return null;
            }));
        }
        List<String> problems = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (Map.Entry<Bundle, FutureTask<Void>> e : starts.entrySet()) {
            Bundle bundle = e.getKey();
            String name = bundle.getSymbolicName() + " " + bundle.getVersion() + " (" + bundle.getLocation() + ")";
            try {
                e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException timeout) {
                problems.add(name + " has not finished starting after " + timeoutMs + " ms (" + TIMEOUT_PROPERTY
                        + "); the server serves without it meanwhile, and it goes on starting in the background");
            } catch (ExecutionException failed) {
                Throwable cause = failed.getCause();
                problems.add(name + " did not start: " + (cause.getMessage() == null ? cause : cause.getMessage()));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return problems; // stopping: the file stays for the next start
            }
        }
        // a start that has begun made its bundle's start persistent again; the others stay written down for the next
        // start (a thread that has not reached the framework yet, waiting for a lock, when the server is killed)
        Set<String> pending = new LinkedHashSet<>();
        for (Bundle bundle : held.keySet()) {
            if (bundle.getState() != Bundle.UNINSTALLED && !bundle.adapt(BundleStartLevel.class).isPersistentlyStarted()) {
                pending.add(bundle.getLocation());
            }
        }
        if (pending.isEmpty()) {
            Files.deleteIfExists(file);
        } else {
            write(file, pending);
        }
        problems.forEach(LOG::warn);
        return problems;
    }

    /** The timeout the system property {@value #TIMEOUT_PROPERTY} sets (at least 1 ms). */
    static long timeoutMs() {
        return Math.max(1, Long.getLong(TIMEOUT_PROPERTY, DEFAULT_TIMEOUT_MS));
    }

    /**
     * The locations written down, one a line (bundle locations are URIs), none when the file cannot be read (the
     * bundles persistently started still are).
     */
    private static List<String> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            return Files.readAllLines(file).stream().filter(line -> !line.isBlank()).toList();
        } catch (IOException e) {
            LOG.warn("Cannot read {} ({}): the bundles a killed start held back may stay stopped", file, e.toString());
            return List.of();
        }
    }

    /**
     * Written (never with no location: then there is no file) to a new file, forced to the disk, and moved into
     * place: a kill (or a power cut) while it is written leaves the one before, never an empty one.
     */
    private static void write(Path file, Set<String> locations) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        try (FileChannel out = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap((String.join("\n", locations) + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        }
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
