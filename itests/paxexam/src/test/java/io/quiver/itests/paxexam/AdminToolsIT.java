package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.fixture.FixtureBundles;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import io.quiver.itests.paxexam.operator.AdminSettings;
import io.quiver.itests.paxexam.operator.ToolCalls;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import tools.jackson.databind.JsonNode;

/**
 * The admin feature's tools, called by an MCP client over HTTP: {@code bundles_list},
 * {@code bundle_install} (only from inside the configured allowed roots) and
 * {@code bundle_uninstall} (never the system bundle or the Quiver core).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class AdminToolsIT {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String INSTALLED_CLASS = "io.quiver.itests.paxexam.operator.InstalledTool";
    private static final String SLOW_CLASS = "io.quiver.itests.paxexam.fixture.SlowTool";

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(AdminToolsIT.class, "admin");
    }

    @Test
    public void bundlesAreListedInstalledAndUninstalledThroughMcp() throws Exception {
        URI endpoint = Endpoint.await(context, McpClient.TIMEOUT);
        Path allowed = Files.createDirectories(context.getDataFile("allowed").toPath());
        Path outside = Files.createDirectories(context.getDataFile("outside").toPath());
        Path jar = allowed.resolve("installed-tool.jar");
        Files.copy(FixtureBundles.toolBundle("io.quiver.itests.admin.installed", INSTALLED_CLASS, "itest_admin_installed")
                .description("Installed by bundle_install (Pax Exam fixture)").build(), jar, StandardCopyOption.REPLACE_EXISTING);
        Path stray = outside.resolve("stray-tool.jar");
        Files.copy(jar, stray, StandardCopyOption.REPLACE_EXISTING);

        try (McpClient client = McpClient.connect(endpoint)) {
            Map<String, JsonNode> tools = Eventually.until("the admin tools are listed", client::listTools,
                    t -> t.keySet().containsAll(List.of("bundles_list", "bundle_install", "bundle_uninstall")), BOUND);
            assertTrue(tools.get("bundles_list").path("annotations").path("readOnlyHint").asBoolean(false));
            assertFalse(tools.get("bundle_install").path("annotations").path("readOnlyHint").asBoolean(true));
            assertTrue(tools.get("bundle_uninstall").path("annotations").path("destructiveHint").asBoolean(false));
            assertEquals("the input schema comes from the arguments record: " + tools.get("bundle_install"),
                    "string", tools.get("bundle_install").path("inputSchema").path("properties").path("location")
                            .path("type").asString());
            assertEquals("integer", tools.get("bundle_uninstall").path("inputSchema").path("properties").path("id")
                    .path("type").asString());

            // No allowed roots yet: every location is refused.
            JsonNode refused = ToolCalls.call(client, "bundle_install", Map.of("location", jar.toString()));
            assertTrue(refused.toString(), refused.path("isError").asBoolean());
            assertTrue(refused.toString(), ToolCalls.text(refused).contains("no allowedRoots"));

            AdminSettings.allowRoot(context, allowed, BOUND);
            JsonNode outsideRoots = Eventually.until("allowedRoots applied",
                    ToolCalls.calling(client, "bundle_install", Map.of("location", stray.toString())),
                    ToolCalls.textContains("outside the allowed roots"), BOUND);
            assertTrue(outsideRoots.path("isError").asBoolean());
            JsonNode remote = ToolCalls.call(client, "bundle_install", Map.of("location", "http://127.0.0.1:1/tool.jar"));
            assertTrue(remote.toString(), remote.path("isError").asBoolean() && ToolCalls.text(remote).contains("Only files"));
            JsonNode escape = ToolCalls.call(client, "bundle_install",
                    Map.of("location", allowed.resolve("..").resolve("outside").resolve("stray-tool.jar").toString()));
            assertTrue(escape.toString(), escape.path("isError").asBoolean() && ToolCalls.text(escape).contains("outside the allowed roots"));

            // Install from inside the root, as a file: URL: the bundle starts and its tool is served.
            JsonNode installed = ToolCalls.call(client, "bundle_install", Map.of("location", jar.toUri().toString()));
            System.err.println("[AdminToolsIT] bundle_install: " + installed);
            assertFalse(installed.toString(), installed.path("isError").asBoolean());
            JsonNode info = installed.path("structuredContent");
            long id = info.path("id").asLong();
            assertEquals("io.quiver.itests.admin.installed", info.path("symbolicName").asString());
            assertEquals("ACTIVE", info.path("state").asString());
            assertEquals(Bundle.ACTIVE, context.getBundle(id).getState());
            Eventually.until("the installed bundle's tool is listed", client::listTools,
                    t -> t.containsKey("itest_admin_installed"), BOUND);
            assertEquals("installed over MCP and running", ToolCalls.text(ToolCalls.call(client, "itest_admin_installed", Map.of())));
            JsonNode again = ToolCalls.call(client, "bundle_install", Map.of("location", jar.toString()));
            assertTrue(again.toString(), ToolCalls.text(again).startsWith("Already installed") && again.path("structuredContent").path("id").asLong() == id);

            JsonNode list = ToolCalls.call(client, "bundles_list", Map.of());
            assertFalse(list.path("isError").asBoolean());
            boolean listed = false;
            for (JsonNode bundle : list.path("structuredContent").path("bundles")) {
                if (bundle.path("id").asLong() == id) {
                    listed = true;
                    assertEquals("io.quiver.itests.admin.installed", bundle.path("symbolicName").asString());
                    assertEquals("1.0.0", bundle.path("version").asString());
                    assertEquals("ACTIVE", bundle.path("state").asString());
                }
            }
            assertTrue("bundles_list lists bundle " + id + ": " + list, listed);

            // The framework and the core are refused.
            JsonNode system = ToolCalls.call(client, "bundle_uninstall", Map.of("id", 0));
            assertTrue(system.toString(), system.path("isError").asBoolean() && ToolCalls.text(system).contains("system bundle"));
            long core = AdminSettings.bundleId(context, "io.quiver.core");
            JsonNode coreRefused = ToolCalls.call(client, "bundle_uninstall", Map.of("id", core));
            assertTrue(coreRefused.toString(), coreRefused.path("isError").asBoolean() && ToolCalls.text(coreRefused).contains("protected"));
            assertEquals(Bundle.ACTIVE, context.getBundle(core).getState());

            // Uninstall: the tool leaves the catalog.
            JsonNode removed = ToolCalls.call(client, "bundle_uninstall", Map.of("id", id));
            System.err.println("[AdminToolsIT] bundle_uninstall: " + removed);
            assertFalse(removed.toString(), removed.path("isError").asBoolean());
            assertEquals("UNINSTALLED", removed.path("structuredContent").path("state").asString());
            assertNull(context.getBundle(id));
            Eventually.until("the uninstalled bundle's tool is gone", client::listTools,
                    t -> !t.containsKey("itest_admin_installed"), BOUND);
            JsonNode gone = ToolCalls.call(client, "bundle_uninstall", Map.of("id", id));
            assertTrue(gone.toString(), gone.path("isError").asBoolean() && ToolCalls.text(gone).contains("No bundle"));

            // A bundle that cannot resolve: installed, not started, reported as an error the model can read.
            Path unresolvable = allowed.resolve("unresolvable-tool.jar");
            Files.copy(FixtureBundles.toolBundle("io.quiver.itests.admin.unresolvable", SLOW_CLASS, "itest_admin_unresolvable")
                    .importing("io.quiver.itests.nothing.exports.this;version=\"[9,10)\"").build(), unresolvable,
                    StandardCopyOption.REPLACE_EXISTING);
            JsonNode broken = ToolCalls.call(client, "bundle_install", Map.of("location", unresolvable.toString()));
            System.err.println("[AdminToolsIT] bundle_install of an unresolvable bundle: " + broken);
            assertTrue(broken.toString(), broken.path("isError").asBoolean() && ToolCalls.text(broken).contains("cannot start"));
            assertEquals("INSTALLED", broken.path("structuredContent").path("state").asString());
            assertTrue("the engine still answers", client.ping());
            JsonNode cleanup = ToolCalls.call(client, "bundle_uninstall", Map.of("id", broken.path("structuredContent").path("id").asLong()));
            assertFalse(cleanup.toString(), cleanup.path("isError").asBoolean());
        }
    }
}
