package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What goes wrong in deploy/ stays there: jars that claim to be the core (same version, higher
 * version) or Jackson (which the server's class path provides in place of its bundle) cannot replace
 * or join the platform, through deploy/ or {@code bundle_install}; broken files (not a jar, empty, bad feature JSON,
 * far too large, no manifest, an activator that is missing, an import nobody exports) and a tool with an invalid
 * schema are each logged once with the file and the reason, listed as problems (so is a component that waits for a
 * service nobody provides, while a fresh server lists none), and not tried again
 * when something else in deploy/ changes. The endpoint answers throughout.
 */
class DeployGuardIT {

    private static final Duration EFFECT = Duration.ofSeconds(20);
    private static final String DATABIND = "tools.jackson.core.jackson-databind";
    private static final String JACKSON = tools.jackson.databind.cfg.PackageVersion.VERSION.toString();

    @Test
    void deployCannotTouchThePlatformAndEveryBadFileIsToldOnce() throws Exception {
        try (QuiverServer server = QuiverServer.start("deploy-guard", "core,http,tools-default,admin", home ->
                Files.writeString(Files.createDirectories(home.resolve("etc")).resolve("io.quiver.tools.admin.cfg"),
                        "allowedRoots = " + home.resolve("work").toAbsolutePath().toString().replace('\\', '/') + "\n"));
             McpClient client = McpClient.connect(server.url(), "guard", Duration.ofSeconds(20))) {
            Path deploy = server.home().resolve("deploy");
            Path work = Files.createDirectories(server.home().resolve("work"));
            // a fresh server has nothing to fix: what waits by design (the API key authenticator, no key yet) is not listed
            assertEquals("No problems.", client.callTool("problems_list", Map.of()).path("result").path("content").path(0)
                    .path("text").asString());
            String version = System.getProperty("quiver.version").replace('-', '.');
            List<String> files = List.of("impostor.jar", "impostor-higher.jar", "corrupt.jar", "empty.jar", "bad.json",
                    "huge.jar", "no-activator.jar", "unresolved.jar", "no-manifest.jar", "impostor-jackson.jar");
            // Jackson comes from the server's class path, not from a bundle: a copy is refused all the same
            Path jackson = ToolBundles.manifestOnly(work.resolve("k.jar"),
                    Map.of("Bundle-SymbolicName", DATABIND, "Bundle-Version", JACKSON));
            ToolBundles.place(jackson, deploy.resolve(files.get(9)));
            JsonNode installJackson = client.callTool("bundle_install", Map.of("location", jackson.toString()));
            for (long deadline = System.nanoTime() + EFFECT.toNanos();
                    installJackson.toString().contains("no allowedRoots") && System.nanoTime() < deadline; ) {
                Thread.sleep(100); // etc/ configures the admin tools as the server starts
                installJackson = client.callTool("bundle_install", Map.of("location", jackson.toString()));
            }
            assertTrue(installJackson.path("result").path("isError").asBoolean(), installJackson.toString());
            assertTrue(installJackson.toString().contains(DATABIND + " is already installed as part of the running platform ("
                    + DATABIND + " " + JACKSON + ", from the server's class path)"), installJackson.toString());
            ToolBundles.place(ToolBundles.manifestOnly(work.resolve("a.jar"),
                    Map.of("Bundle-SymbolicName", "io.quiver.core", "Bundle-Version", version)), deploy.resolve(files.get(0)));
            ToolBundles.place(ToolBundles.manifestOnly(work.resolve("b.jar"),
                    Map.of("Bundle-SymbolicName", "io.quiver.core", "Bundle-Version", "9.9.9")), deploy.resolve(files.get(1)));
            Files.write(work.resolve("c.jar"), "PK this is not a zip file".getBytes());
            ToolBundles.place(work.resolve("c.jar"), deploy.resolve(files.get(2)));
            Files.write(work.resolve("d.jar"), new byte[0]);
            ToolBundles.place(work.resolve("d.jar"), deploy.resolve(files.get(3)));
            Files.writeString(work.resolve("e.json"), "{\"id\": \"broken:feature:1\", \"bundles\": [");
            ToolBundles.place(work.resolve("e.json"), deploy.resolve(files.get(4)));
            try (RandomAccessFile huge = new RandomAccessFile(work.resolve("f.jar").toFile(), "rw")) {
                huge.setLength(300L << 20);
            }
            Files.move(work.resolve("f.jar"), deploy.resolve(files.get(5)));
            ToolBundles.place(ToolBundles.manifestOnly(work.resolve("g.jar"), Map.of("Bundle-SymbolicName",
                    "test.no.activator", "Bundle-Version", "1.0.0", "Bundle-Activator", "test.missing.Activator")),
                    deploy.resolve(files.get(6)));
            ToolBundles.place(ToolBundles.manifestOnly(work.resolve("h.jar"), Map.of("Bundle-SymbolicName",
                    "test.unresolved", "Bundle-Version", "1.0.0", "Import-Package", "no.such.pkg;version=\"[9,10)\"")),
                    deploy.resolve(files.get(7)));
            try (ZipOutputStream zip = new ZipOutputStream(
                    Files.newOutputStream(work.resolve("j.jar")))) {
                zip.putNextEntry(new ZipEntry("hello.txt"));
                zip.write("a zip, but no bundle".getBytes());
                zip.closeEntry();
            }
            ToolBundles.place(work.resolve("j.jar"), deploy.resolve(files.get(8)));
            ToolBundles.place(ToolBundles.badSchema(ToolBundles.exampleJar(), work.resolve("i.jar")),
                    deploy.resolve("bad-schema.jar"));
            ToolBundles.place(ToolBundles.waiting(ToolBundles.exampleJar(), work.resolve("w.jar")), deploy.resolve("waiting.jar"));
            ToolBundles.place(ToolBundles.classless(ToolBundles.exampleJar(), work.resolve("c.jar")),
                    deploy.resolve("classless.jar"));

            JsonNode problems = awaitProblems(client, p -> files.stream().allMatch(p::contains)
                    && p.contains(ToolBundles.BAD_SCHEMA_TOOL) && p.contains("com.example.Database")
                    && p.contains("cannot be loaded"));
            String text = problems.toString();
            // SCR registers the service of a component whose class is missing and fails each time it is asked for
            assertTrue(text.contains("failed activation: its class no.such."), text);
            assertTrue(text.contains("java.lang.ClassNotFoundException"), text);
            // a component that waits for a service is told, with the service; the unresolved jar only once, as a file
            assertTrue(text.contains("unsatisfied reference: no service for database (com.example.Database)"), text);
            for (JsonNode p : problems.path("problems")) {
                assertFalse(p.path("subject").asString().contains("test.unresolved"), "told as a file already: " + text);
            }
            assertTrue(text.contains("io.quiver.core is part of the running platform"), text);
            assertTrue(text.contains(DATABIND + " is part of the running platform (" + DATABIND + " " + JACKSON
                    + ", from the server's class path)"), text);
            assertTrue(text.contains("not a jar"), text);
            assertTrue(text.contains("the file is empty"), text);
            assertTrue(text.contains("is not valid JSON"), text);
            assertTrue(text.contains("more than maxFileBytes"), text);
            assertTrue(text.contains("did not start"), text);
            assertTrue(text.contains("does not resolve"), text);
            assertTrue(text.contains("has no META-INF/MANIFEST.MF"), text);
            assertTrue(text.contains("/properties/x/type"), text);
            Probe.normalCallAnswers(server.url());
            assertEquals("{}", client.request("ping", Map.of()).path("result").toString());

            JsonNode bundles = client.callTool("bundles_list", Map.of()).path("result").path("structuredContent")
                    .path("bundles");
            long cores = 0;
            for (JsonNode b : bundles) {
                if (b.path("symbolicName").asString().equals("io.quiver.core")) {
                    cores++;
                    assertEquals("ACTIVE", b.path("state").asString(), b.toString());
                    assertTrue(b.path("location").asString().startsWith("quiver:"), "the platform's own: " + b);
                }
            }
            assertEquals(1, cores, "one core, the platform's: " + bundles);
            assertFalse(bundles.toString().contains(DATABIND), "no bundle of Jackson beside the class path's: " + bundles);
            assertNull(client.tool(ToolBundles.BAD_SCHEMA_TOOL), "the tool with the invalid schema is not listed");

            // a good bundle arrives: nothing refused before is tried (or logged) again
            ToolBundles.place(ToolBundles.exampleJar(), deploy.resolve("greeting-tool.jar"));
            awaitTool(client, ToolBundles.TOOL, true);
            assertTrue(server.logLines("Tool greet added (io.quiver.examples.greeting 1.0.0") >= 1, server.log());
            Thread.sleep(1500);
            for (String file : files) {
                assertEquals(1, server.logLines(file + ":"), file + " is logged once:\n" + server.log());
            }
            assertEquals(1, server.logLines("Refused service"), "the invalid schema is logged once:\n" + server.log());
            // but SCR's own, once, for the component whose class is missing: the catalog asked for its service once
            assertEquals(1, server.logLines("Could not load implementation object class no.such."), server.log());
            assertFalse(withoutTrace(server.log(), "java.lang.ClassNotFoundException: no.such.").contains("\tat "),
                    "no stack traces:\n" + server.log());

            // fixed or gone, a file's problem goes
            Files.delete(deploy.resolve("corrupt.jar"));
            Files.delete(deploy.resolve("greeting-tool.jar"));
            awaitTool(client, ToolBundles.TOOL, false);
            awaitProblems(client, p -> !p.contains("corrupt.jar"));
            assertTrue(server.logLines("Tool greet removed (io.quiver.examples.greeting") >= 1, server.log());
        }
    }

    private static JsonNode awaitProblems(McpClient client, Predicate<String> wanted) throws Exception {
        long deadline = System.nanoTime() + EFFECT.toNanos();
        JsonNode problems;
        do {
            problems = client.callTool("problems_list", Map.of()).path("result").path("structuredContent");
            if (wanted.test(problems.toString())) {
                return problems;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the problems listed are not the ones expected: " + problems);
    }

    private static void awaitTool(McpClient client, String name, boolean present) throws Exception {
        long deadline = System.nanoTime() + EFFECT.toNanos();
        while ((client.tool(name) != null) != present && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        if (present) {
            assertNotNull(client.tool(name), name + " listed");
        } else {
            assertNull(client.tool(name), name + " gone");
        }
    }

    /** The log without the stack trace that follows the first line starting with {@code head}. */
    private static String withoutTrace(String log, String head) {
        StringBuilder kept = new StringBuilder();
        boolean skipping = false;
        for (String line : log.split("\n", -1)) {
            if (line.startsWith(head)) {
                skipping = true;
                continue;
            }
            if (skipping && (line.startsWith("\t") || line.startsWith("Caused by:"))) {
                continue;
            }
            skipping = false;
            kept.append(line).append('\n');
        }
        return kept.toString();
    }
}
