package io.quiver.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuiverCommandsTest {

    private final QuiverCommands commands = new QuiverCommands(null, Map.of("callTimeoutMs", 1000L));

    /**
     * A wrong setting keeps its default and is listed: read through Declarative Services' own conversion,
     * {@code callTimeoutMs = abc} failed the component, and every quiver:* command (quiver:problems too) with it.
     */
    @Test
    void aWrongSettingKeepsItsDefaultAndIsListed() {
        QuiverCommands wrong = new QuiverCommands(null, Map.of("callTimeoutMs", "abc"));
        assertEquals(1, wrong.wrongSettings().size(), wrong.wrongSettings()::toString);
        assertTrue(wrong.wrongSettings().get(0).reason().startsWith("callTimeoutMs = abc is not"), wrong.wrongSettings()::toString);
        assertEquals(List.of(), commands.wrongSettings());
    }

    @Test
    void argumentsAreOneJsonObject() {
        assertEquals(Map.of("a", 1, "b", "x"), commands.arguments("{\"a\":1,\"b\":\"x\"}"));
        assertEquals(Map.of(), commands.arguments(""));
        IllegalArgumentException notJson = assertThrows(IllegalArgumentException.class, () -> commands.arguments("{a"));
        assertTrue(notJson.getMessage().contains("single quotes"), notJson.getMessage());
        assertThrows(IllegalArgumentException.class, () -> commands.arguments("[1,2]"));
    }

    @Test
    void withoutTheCoreTheCatalogCommandsSaySo() throws Exception {
        assertTrue(commands.tools().startsWith("The Quiver core is not running (no McpOperator service)"));
        assertTrue(commands.call("x").startsWith("The Quiver core is not running (no McpEngine service)"));
        assertTrue(commands.callin("acme/showcase", "x").startsWith("The Quiver core is not running"));
    }

    @Test
    void callinTakesATenantAndAnOptionalProject() throws Exception {
        for (String bad : new String[] {"", "acme/", "/showcase", "a/b/c", "../acme", "acme corp"}) {
            assertTrue(commands.callin(bad, "x").startsWith("Not a place: " + bad), bad);
        }
    }

    @Test
    void withoutConfigurationAdminTheAuditFileIsTheDefaultOne() {
        Path expected = Path.of("audit/calls.jsonl").toAbsolutePath();
        String out = commands.audit();
        assertTrue(out.startsWith("No audit file at " + expected) || out.contains(" of " + expected + ":"), out);
    }

    @Test
    void installTakesUrlsAsTheyAreAndPathsAsFileUris(@TempDir Path dir) throws IOException {
        assertEquals("https://example.org/b.jar", BundleOperations.location("https://example.org/b.jar"));
        assertEquals("file:/x/b.jar", BundleOperations.location("file:/x/b.jar"));
        Path jar = Files.createFile(dir.resolve("b.jar"));
        assertEquals(jar.toUri().toString(), BundleOperations.location(jar.toString()));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> BundleOperations.location(dir.resolve("none.jar").toString()));
        assertTrue(missing.getMessage().startsWith("No such file"), missing.getMessage());
    }
}
