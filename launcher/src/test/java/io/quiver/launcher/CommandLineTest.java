package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandLineTest {

    private static LaunchSettings run(String... args) throws Exception {
        return assertInstanceOf(CommandLine.Run.class, CommandLine.parse(args)).settings();
    }

    @Test
    void noArgumentsAndPlainRunGiveTheDefaults() throws Exception {
        for (LaunchSettings s : List.of(run(), run("run"))) {
            assertEquals(List.of("core", "http", "tools-default"), s.features());
            assertEquals(7711, s.port());
            assertEquals("127.0.0.1", s.bind());
            assertEquals(Path.of("etc"), s.etc());
            assertEquals(Path.of("deploy"), s.deploy());
            assertNull(s.data());
            assertTrue(s.awaitEndpoint());
            assertTrue(s.frameworkProperties().isEmpty());
        }
    }

    @Test
    void insecureNoAuthIsAFlagThatBecomesAFrameworkProperty() throws Exception {
        LaunchSettings s = run("run", "--bind", "0.0.0.0", "--insecure-no-auth", "--port", "0");
        assertEquals("true", s.frameworkProperties().get(FrameworkProperties.INSECURE_NO_AUTH));
        assertEquals(0, s.port());
    }

    @Test
    void stdioServesWithoutHttpByDefault() throws Exception {
        for (LaunchSettings s : List.of(run("run", "--stdio"), run("--stdio"))) {
            assertTrue(s.stdio());
            assertEquals("true", s.frameworkProperties().get(FrameworkProperties.STDIO));
            assertEquals(List.of("core", "stdio", "tools-default"), s.features());
        }
        assertFalse(run().stdio());
        assertFalse(run("--features", "stdio").stdio(), "the feature alone does not take over stdin and stdout");
    }

    @Test
    void stdioWithNamedFeaturesKeepsThemAndAddsItsTransport() throws Exception {
        LaunchSettings both = run("run", "--features", "http,tools-default", "--stdio", "--port", "0");
        assertTrue(both.stdio());
        assertEquals(List.of("core", "http", "tools-default", "stdio"), both.features());
        assertEquals(0, both.port());
        assertEquals(List.of("core", "stdio", "conformance"), run("--stdio", "--features=stdio,conformance").features());
        assertEquals(List.of("core", "stdio"), run("--stdio", "--features", "").features());
    }

    @Test
    void stdioOptionsWithPathsAsAHostPassesThem() throws Exception {
        LaunchSettings s = run("run", "--stdio", "--etc", "/srv/quiver/etc", "--deploy=/srv/quiver/deploy",
                "--data", "/srv/quiver/data");
        assertTrue(s.stdio());
        assertEquals(Path.of("/srv/quiver/etc"), s.etc());
        assertEquals(Path.of("/srv/quiver/deploy"), s.deploy());
        assertEquals(Path.of("/srv/quiver/data"), s.data());
    }

    @Test
    void everyOptionWithSeparateValues() throws Exception {
        LaunchSettings s = run("run", "--port", "0", "--bind", "0.0.0.0", "--features", "http,conformance",
                "--etc", "/x/etc", "--deploy", "d", "--data", "/var/q");
        assertEquals(0, s.port());
        assertEquals("0.0.0.0", s.bind());
        assertEquals(List.of("core", "http", "conformance"), s.features());
        assertEquals(Path.of("/x/etc"), s.etc());
        assertEquals(Path.of("d"), s.deploy());
        assertEquals(Path.of("/var/q"), s.data());
    }

    @Test
    void optionsWithEqualsAndWithoutTheRunCommand() throws Exception {
        LaunchSettings s = run("--port=8080", "--features=core, http ,,tools-default", "--bind=::1");
        assertEquals(8080, s.port());
        assertEquals("::1", s.bind());
        assertEquals(List.of("core", "http", "tools-default"), s.features());
    }

    @Test
    void coreIsAlwaysFirstAndFeaturesAreNotRepeated() throws Exception {
        assertEquals(List.of("core", "http"), run("--features", "http,core,http").features());
        assertEquals(List.of("core"), run("--features", "").features());
        assertEquals(List.of("core", "/tmp/extra.json"), run("--features", "/tmp/extra.json").features());
    }

    @Test
    void theLastOfARepeatedOptionWins() throws Exception {
        assertEquals(2, run("--port", "1", "--port", "2").port());
    }

    @Test
    void help() throws Exception {
        assertInstanceOf(CommandLine.Help.class, CommandLine.parse("help"));
        assertInstanceOf(CommandLine.Help.class, CommandLine.parse("--help"));
        assertInstanceOf(CommandLine.Help.class, CommandLine.parse("run", "--port", "1", "-h"));
        assertTrue(CommandLine.usage().contains("--features"));
        assertTrue(CommandLine.usage().contains("--stdio"));
        assertTrue(CommandLine.usage().contains("core,stdio,tools-default"), CommandLine.usage());
    }

    @Test
    void wrongCommandLines() {
        assertUsage("unknown option '--prot'", "run", "--prot", "1");
        assertUsage("unknown option '--verbose'", "--verbose");
        assertUsage("unknown command 'start'", "start");
        assertUsage("unexpected argument 'extra'", "run", "extra");
        assertUsage("option --port needs a value", "run", "--port");
        assertUsage("'abc' is not a port number", "--port", "abc");
        assertUsage("'70000' is not a port number", "--port", "70000");
        assertUsage("'-1' is not a port number", "--port=-1");
        assertUsage("--bind needs a non-empty value", "--bind", " ");
        assertUsage("--etc needs a non-empty value", "--etc=");
        assertUsage("--stdio takes no value", "--stdio=true");
        assertUsage("unknown option '--stdio' of apikey create", "apikey", "create", "--subject", "s", "--stdio");
    }

    private static void assertUsage(String expected, String... args) {
        CommandLine.UsageException e = assertThrows(CommandLine.UsageException.class, () -> CommandLine.parse(args));
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' should contain '" + expected + "'");
    }
}
