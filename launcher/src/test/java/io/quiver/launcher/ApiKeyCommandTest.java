package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiKeyCommandTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:34:56.789Z");

    /** What one run printed and returned. */
    private record Output(int status, String out, String err) {
        String key() {
            return find("(?m)^API key: (\\S+)$");
        }

        String hash() {
            return find("(?m)^hash = (\\S+)$");
        }

        String find(String regex) {
            Matcher m = Pattern.compile(regex).matcher(out);
            assertTrue(m.find(), () -> regex + " not in:\n" + out);
            return m.group(1);
        }
    }

    private static CommandLine.CreateApiKey parse(String... args) throws Exception {
        return assertInstanceOf(CommandLine.CreateApiKey.class, CommandLine.parse(args));
    }

    private static Output run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = new ApiKeyCommand(Clock.fixed(NOW, ZoneOffset.UTC), new SecureRandom())
                .run(parse(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Output(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void thePrintedHashIsTheSha256OfThePrintedKey() throws Exception {
        Output o = run("apikey", "create", "--subject", "ci-bot");
        assertEquals(0, o.status(), o.err());
        String key = o.key();
        assertTrue(key.matches("qvk_[A-Za-z0-9_-]{43}"), key);
        assertEquals(32, Base64.getUrlDecoder().decode(key.substring(4)).length);
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        assertEquals("sha256:" + HexFormat.of().formatHex(digest), o.hash());
        assertTrue(o.hash().matches("sha256:[0-9a-f]{64}"));
        assertEquals(1, o.out().split(Pattern.quote(key), -1).length - 1, "the key is printed once");
    }

    @Test
    void everyKeyIsNew() throws Exception {
        assertNotEquals(run("apikey", "create", "--subject", "a").key(), run("apikey", "create", "--subject", "a").key());
    }

    @Test
    void theOutputNamesTheFileAndGivesItsWholeContents() throws Exception {
        Output o = run("apikey", "create", "--subject", "CI Bot@acme", "--tenant", "acme", "--roles", "reader, deployer",
                "--scopes=mcp:tools", "--expires", "2027-03-01");
        assertEquals(0, o.status());
        String expected = "API key: " + o.key() + "\n"
                + "\n"
                + "WARNING: this is the only time the key is shown. It is not stored anywhere (the configuration\n"
                + "below holds only its SHA-256 hash): copy it into your secret store now. A lost key cannot be\n"
                + "recovered, only replaced. Clients send it as the header: Authorization: Bearer <key>\n"
                + "\n"
                + "Configuration file to create, " + Path.of("etc", "io.quiver.auth.apikey-ci-bot-acme.cfg") + ":\n"
                + "\n"
                + "# API key of CI Bot@acme, created 2026-12-01T12:34:56Z by quiver apikey create (only its hash is stored)\n"
                + "hash = " + o.hash() + "\n"
                + "subject = CI Bot@acme\n"
                + "tenant = acme\n"
                + "roles = reader, deployer\n"
                + "scopes = mcp:tools\n"
                + "expires = 2027-03-01\n"
                + "\n"
                + "Create that file with exactly these lines (--write does it for you); a running server reads it\n"
                + "within about a second. Deleting the file revokes the key.\n";
        assertEquals(expected, o.out().replace(System.lineSeparator(), "\n"));
        assertEquals("", o.err());
    }

    @Test
    void defaultsAreTenantDefaultNoRolesNoScopesAndNinetyDays() throws Exception {
        Output o = run("apikey", "create", "--subject", "svc");
        assertTrue(o.out().contains("tenant = default\nroles =\nscopes =\nexpires = 2027-03-01T12:34:56Z\n"
                .replace("\n", System.lineSeparator())), o.out());
        assertTrue(o.out().contains("io.quiver.auth.apikey-svc.cfg"), o.out());
    }

    @Test
    void expiryAsDaysOrAsAnInstant() throws Exception {
        assertEquals("2026-12-08T12:34:56Z", run("apikey", "create", "--subject", "s", "--days", "7")
                .find("(?m)^expires = (\\S+)$"));
        assertEquals("2027-03-01T08:00:00Z", run("apikey", "create", "--subject", "s",
                "--expires=2027-03-01T10:00:00+02:00").find("(?m)^expires = (\\S+)$"));
    }

    @Test
    void anExpiryInThePastIsRefused() throws Exception {
        Output o = run("apikey", "create", "--subject", "s", "--expires", "2026-12-01");
        assertEquals(2, o.status());
        assertEquals("", o.out(), "no key is printed");
        assertTrue(o.err().contains("--expires 2026-12-01 is not in the future"), o.err());
    }

    @Test
    void writeCreatesTheFileAndNeverOverwritesIt(@TempDir Path dir) throws Exception {
        Path etc = dir.resolve("etc");
        Output first = run("apikey", "create", "--subject", "ci-bot", "--write", "--etc", etc.toString());
        assertEquals(0, first.status(), first.err());
        Path file = etc.resolve("io.quiver.auth.apikey-ci-bot.cfg");
        String written = Files.readString(file);
        assertTrue(written.startsWith("# API key of ci-bot, created 2026-12-01T12:34:56Z"), written);
        assertTrue(written.contains("hash = " + first.hash() + "\n"), written);
        assertFalse(written.contains(first.key()), "the key itself is never written");
        assertTrue(first.out().contains("Configuration file written, " + file + ":"), first.out());

        Output second = run("apikey", "create", "--subject", "ci-bot", "--write", "--etc", etc.toString());
        assertEquals(1, second.status());
        assertEquals("", second.out(), "no key is printed when its file cannot be written");
        assertTrue(second.err().contains("already exists; not overwritten"), second.err());
        assertEquals(written, Files.readString(file));

        assertEquals(0, run("apikey", "create", "--subject", "ci-bot", "--name", "ci-bot-2", "--write",
                "--etc=" + etc).status());
        assertTrue(Files.exists(etc.resolve("io.quiver.auth.apikey-ci-bot-2.cfg")));
    }

    @Test
    void theNameIsTheSubjectOrTheGivenNameSanitised() throws Exception {
        assertEquals("ci-bot", parse("apikey", "create", "--subject", "ci-bot").name());
        assertEquals("svc-deployer-acme-com", parse("apikey", "create", "--subject", "svc:Deployer@acme.com").name());
        assertEquals("nightly-2", parse("apikey", "create", "--subject", "x", "--name", "--Nightly  2--").name());
        assertEquals("ci-bot", ApiKeyCommand.sanitise("CI_Bot"));
    }

    @Test
    void parsedOptions() throws Exception {
        CommandLine.CreateApiKey c = parse("apikey", "create", "--subject", " s ", "--roles", "a,,b, a",
                "--scopes", "", "--days", "30", "--etc", "/srv/etc", "--write");
        assertEquals(new CommandLine.CreateApiKey("s", "default", List.of("a", "b"), List.of(), null, 30, "s",
                Path.of("/srv/etc"), true), c);
        assertEquals(Path.of("etc"), parse("apikey", "create", "--subject", "s").etc());
        assertEquals(90, parse("apikey", "create", "--subject", "s").days());
    }

    @Test
    void helpAndTheOtherCommandsStay() throws Exception {
        assertInstanceOf(CommandLine.Help.class, CommandLine.parse("apikey"));
        assertInstanceOf(CommandLine.Help.class, CommandLine.parse("apikey", "--help"));
        assertInstanceOf(CommandLine.Help.class, CommandLine.parse("apikey", "create", "--subject", "s", "-h"));
        assertInstanceOf(CommandLine.Run.class, CommandLine.parse("run", "--etc", "x"));
        assertTrue(CommandLine.usage().contains("apikey create --subject S"));
        assertTrue(CommandLine.usage().contains("--days N            or: expiry N days from now (default 90)"));
    }

    @Test
    void wrongApiKeyCommandLines() {
        assertUsage("unknown apikey command 'list'", "apikey", "list");
        assertUsage("needs --subject", "apikey", "create");
        assertUsage("--subject needs a non-empty value", "apikey", "create", "--subject", " ");
        assertUsage("unknown option '--port' of apikey create", "apikey", "create", "--subject", "s", "--port", "1");
        assertUsage("option --days needs a value", "apikey", "create", "--subject", "s", "--days");
        assertUsage("--days: '0' is not a number of days", "apikey", "create", "--subject", "s", "--days", "0");
        assertUsage("--days: 'ten' is not a number of days", "apikey", "create", "--subject", "s", "--days=ten");
        assertUsage("--expires: '2027-02-30' is not a date", "apikey", "create", "--subject", "s", "--expires", "2027-02-30");
        assertUsage("--expires: '2027-03-01T00:00' is not a date", "apikey", "create", "--subject", "s",
                "--expires", "2027-03-01T00:00");
        assertUsage("give --expires or --days, not both", "apikey", "create", "--subject", "s", "--days", "3",
                "--expires", "2030-01-01");
        assertUsage("--write takes no value", "apikey", "create", "--subject", "s", "--write=yes");
        assertUsage("unexpected argument 'extra'", "apikey", "create", "--subject", "s", "extra");
        assertUsage("--subject: 'a$b' must be printable ASCII without \\ or $", "apikey", "create", "--subject", "a$b");
        assertUsage("--subject: 'a\\b' must be", "apikey", "create", "--subject", "a\\b");
        assertUsage("--tenant: 'caf\u00e9' must be", "apikey", "create", "--subject", "s", "--tenant", "caf\u00e9");
        assertUsage("--roles: 'x\ny' must be", "apikey", "create", "--subject", "s", "--roles", "a,x\ny");
        assertUsage("give --name with letters, digits or -", "apikey", "create", "--subject", "@@@");
        assertUsage("unknown command 'start' (expected run, apikey or help)", "start");
    }

    private static void assertUsage(String expected, String... args) {
        CommandLine.UsageException e = assertThrows(CommandLine.UsageException.class, () -> CommandLine.parse(args));
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' should contain '" + expected + "'");
    }
}
