package io.quiver.itests.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Folders the tests make and remove. */
final class Dirs {

    private Dirs() {
    }

    /** Deletes a folder with everything in it; nothing when it does not exist. */
    static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
