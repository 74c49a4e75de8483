package io.quiver.tools.admin.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AllowedRootsTest {

    @TempDir
    Path dir;
    private Path root;
    private Path jar;
    private Path outside;

    @BeforeEach
    void files() throws IOException {
        root = Files.createDirectories(dir.resolve("root"));
        jar = Files.createFile(root.resolve("tool.jar"));
        outside = Files.createFile(dir.resolve("outside.jar"));
    }

    private AllowedRoots roots() {
        return new AllowedRoots(new String[] {root.toString(), " ", dir.resolve("missing").toString()});
    }

    private String refusal(AllowedRoots roots, String location) {
        return assertThrows(IllegalArgumentException.class, () -> roots.check(location)).getMessage();
    }

    @Test
    void withoutRootsEverythingIsRefused() {
        assertTrue(refusal(new AllowedRoots(new String[0]), jar.toString()).contains("no allowedRoots"));
        assertTrue(refusal(new AllowedRoots(null), jar.toString()).contains("no allowedRoots"));
    }

    @Test
    void pathsAndFileUrlsInsideARootAreAccepted() throws IOException {
        assertEquals(jar.toRealPath(), roots().check(jar.toString()));
        assertEquals(jar.toRealPath(), roots().check(jar.toUri().toString()));
    }

    @Test
    void everythingElseIsRefusedWithAReason() {
        assertTrue(refusal(roots(), outside.toString()).contains("outside the allowed roots"));
        assertTrue(refusal(roots(), root.resolve("..").resolve("outside.jar").toString()).contains("outside the allowed roots"));
        assertTrue(refusal(roots(), "https://example.org/tool.jar").startsWith("Only files"));
        assertTrue(refusal(roots(), "root/tool.jar").startsWith("Give an absolute path"));
        assertTrue(refusal(roots(), root.resolve("none.jar").toString()).startsWith("No such file"));
        assertTrue(refusal(roots(), root.toString()).contains("is not a file"));
        assertTrue(refusal(roots(), "").startsWith("Give an absolute path"));
    }

    @Test
    void aSymbolicLinkOutOfARootIsRefused() throws IOException {
        Path link = root.resolve("link.jar");
        try {
            Files.createSymbolicLink(link, outside);
        } catch (UnsupportedOperationException | IOException e) {
            return; // no symbolic links on this file system
        }
        assertTrue(refusal(roots(), link.toString()).contains("outside the allowed roots"));
    }
}
