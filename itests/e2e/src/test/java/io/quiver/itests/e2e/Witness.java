package io.quiver.itests.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The witness tool ({@code itests/witness-tool}) in a server's home: every call leaves a line in a
 * file, so a test proves a refused call never ran by its line being absent.
 */
final class Witness {

    private Witness() {
    }

    /** Drops the tool into {@code deploy/} and configures its file; returns that file. */
    static Path install(Path home) throws IOException {
        Path file = home.resolve("witness.log");
        Files.writeString(home.resolve("etc/io.quiver.itests.witness.cfg"),
                "file = " + file.toAbsolutePath().toString().replace('\\', '/') + "\n");
        Files.copy(Path.of(System.getProperty("witness.bundle")), home.resolve("deploy/witness-tool.jar"));
        return file;
    }
}
