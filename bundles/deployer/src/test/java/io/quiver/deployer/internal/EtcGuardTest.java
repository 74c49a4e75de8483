package io.quiver.deployer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * A configuration deleted while a file of its PID is still in etc/ is read again from that file (deleting a stray
 * {@code .config} twin of the JWT settings turned authentication off); one whose files are all gone stays deleted.
 */
class EtcGuardTest {

    @TempDir
    Path etc;

    /** What the installer was asked to read again. */
    private final List<File> readAgain = new ArrayList<>();

    private final ArtifactInstaller installer = new ArtifactInstaller() {
        @Override
        public boolean canHandle(File artifact) {
            return true;
        }

        @Override
        public void install(File artifact) {
        }

        @Override
        public void update(File artifact) {
            readAgain.add(artifact);
        }

        @Override
        public void uninstall(File artifact) {
        }
    };

    private EtcGuard guard() {
        ConfigurationAdmin none = (ConfigurationAdmin) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ConfigurationAdmin.class}, (proxy, method, args) -> null);
        return new EtcGuard(null, none, file -> installer);
    }

    @Test
    void aConfigurationDeletedWhileItsTwinRemainsIsReadAgainFromIt() throws Exception {
        Path cfg = Files.writeString(etc.resolve("io.quiver.auth.jwt.cfg"), "issuer = https://issuer\n");
        EtcGuard guard = guard();
        // the .config twin was the file last read, and it was deleted
        guard.deleted("io.quiver.auth.jwt", etc.resolve("io.quiver.auth.jwt.config").toFile());
        assertEquals(List.of(cfg.toFile()), readAgain);
    }

    @Test
    void aConfigurationWhoseFilesAreGoneStaysDeleted() {
        guard().deleted("io.quiver.auth.jwt", etc.resolve("io.quiver.auth.jwt.cfg").toFile());
        assertEquals(List.of(), readAgain);
    }

    @Test
    void twoFilesOfOnePidAreAProblemUntilOneGoes() throws Exception {
        Files.writeString(etc.resolve("io.quiver.core.cfg"), "pageSize = 5\n");
        Path twin = Files.writeString(etc.resolve("io.quiver.core.config"), "pageSize=I\"7\"\n");
        EtcGuard guard = guard();
        guard.deleted("io.quiver.core", etc.resolve("io.quiver.core.cfg").toFile()); // deleted through Config Admin
        assertEquals(1, guard.problems().size(), guard.problems()::toString);
        assertTrue(guard.problems().get(0).reason().contains("both set configuration io.quiver.core"),
                guard.problems()::toString);
        Files.delete(twin);
        guard.deleted("io.quiver.core", twin.toFile());
        assertEquals(List.of(), guard.problems());
    }

    @Test
    void theFilesOfAPidAndFilterValues() {
        File file = new File("/etc/q/io.quiver.auth.apikey-ops.config");
        assertEquals(List.of(file, new File("/etc/q/io.quiver.auth.apikey-ops.cfg")), EtcGuard.ofPid(file));
        assertEquals("a\\(b\\)\\*\\\\c", EtcGuard.escaped("a(b)*\\c"));
    }
}
