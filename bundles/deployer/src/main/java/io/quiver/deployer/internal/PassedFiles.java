package io.quiver.deployer.internal;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Component;

/**
 * The files of deploy/ that the first pass ({@link DeployPass}) takes on, with their length and time as they were when
 * it began. FileInstall's own first scan hands each over again (also while the pass still runs, when the launcher has
 * stopped waiting for it): the installer skips a file it finds here unchanged (once), instead of installing it a second
 * time, or trying again what failed and saying so twice. A file changed since is handed over as any change is. One for
 * the pass and both installers.
 */
@Component(service = PassedFiles.class)
public final class PassedFiles {

    /** What FileInstall's scanner tells a change by: a file's length and time. */
    record Stamp(long length, long lastModified) {
        static Stamp of(File file) {
            return new Stamp(file.length(), file.lastModified());
        }
    }

    private final Map<String, Stamp> files = new ConcurrentHashMap<>();

    /** The first pass takes these files on, as they are now: done before it handles any. */
    void claim(List<File> taken) {
        taken.forEach(file -> files.put(key(file), Stamp.of(file)));
    }

    /** Whether FileInstall hands over, unchanged, a file the first pass handled: true once. */
    boolean handedOverAgain(File file) {
        Stamp stamp = files.remove(key(file));
        return stamp != null && stamp.equals(Stamp.of(file));
    }

    void forget(File file) {
        files.remove(key(file));
    }

    /**
     * Whether a file the pass took on is gone and FileInstall never handed it over: deleted before FileInstall's first
     * scan, so FileInstall, which never saw it, will tell no deletion. True once.
     */
    boolean goneUnseen(File file) {
        return !file.exists() && files.remove(key(file)) != null;
    }

    private static String key(File file) {
        return file.toPath().toAbsolutePath().normalize().toString();
    }
}
