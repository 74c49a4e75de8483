package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.fixture.FixtureBundles;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import io.quiver.itests.paxexam.mcp.ProbeTools;
import io.quiver.itests.paxexam.operator.Gogo;
import io.quiver.itests.paxexam.operator.OperatorTools;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * The {@code quiver:*} Gogo commands of the shell feature, run through the {@code CommandProcessor}
 * service as a console or an embedding application runs them: the catalog with ranking and
 * shadowing as services come and go, a tool call through the engine, and the problems report.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ShellCommandsIT {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String SLOW_CLASS = "io.quiver.itests.paxexam.fixture.SlowTool";
    private static final String EXPLODING_CLASS = "io.quiver.itests.paxexam.fixture.ExplodingTool";

    @Inject
    private BundleContext context;

    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();
    private final List<Bundle> installed = new ArrayList<>();

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(ShellCommandsIT.class, "shell");
    }

    @After
    public void cleanUp() {
        for (ServiceRegistration<?> registration : registrations) {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // already unregistered by the test
            }
        }
        registrations.clear();
        for (Bundle bundle : installed) {
            try {
                bundle.uninstall();
            } catch (BundleException | IllegalStateException e) {
                // already gone
            }
        }
        installed.clear();
    }

    @Test
    public void toolsShowsTheWinnerShadowedTheLoserAndTheLoserTakesOver() throws Exception {
        ServiceRegistration<?> low = register(OperatorTools.registerText(context, "itest_ranked", 1, "from the low one"));
        ServiceRegistration<?> high = register(OperatorTools.registerText(context, "itest_ranked", 10, "from the high one"));
        String lowId = OperatorTools.serviceId(low);
        String highId = OperatorTools.serviceId(high);

        String tools = Eventually.until("itest_ranked in quiver:tools", () -> run("quiver:tools"),
                out -> out.contains("itest_ranked"), BOUND);
        System.err.println("[ShellCommandsIT] quiver:tools\n" + tools);
        List<String> winner = cells(Gogo.lineWith(tools, "itest_ranked"));
        assertEquals("ranking of the winner: " + winner, "10", winner.get(2));
        assertEquals("service id of the winner: " + winner, highId, winner.get(3));
        assertTrue(winner.toString(), winner.get(4).contains("'from the high one'"));
        assertTrue("one line per name: " + tools, tools.indexOf("itest_ranked") == tools.lastIndexOf("itest_ranked"));

        String shadowed = run("quiver:shadowed");
        System.err.println("[ShellCommandsIT] quiver:shadowed\n" + shadowed);
        List<String> loser = cells(Gogo.lineWith(shadowed, "itest_ranked"));
        assertEquals("the loser is listed as shadowed: " + shadowed, "itest_ranked", loser.get(0));
        assertEquals(loser.toString(), "1", loser.get(2));
        assertEquals(loser.toString(), lowId, loser.get(3));
        assertTrue("names the winner: " + loser, loser.get(4).startsWith("service " + highId + " "));

        assertTrue(run("quiver:call itest_ranked").contains("from the high one"));

        high.unregister();
        tools = Eventually.until("the ranking-1 service takes over", () -> run("quiver:tools"),
                out -> out.contains("itest_ranked") && cells(Gogo.lineWith(out, "itest_ranked")).get(3).equals(lowId), BOUND);
        System.err.println("[ShellCommandsIT] quiver:tools after the winner left\n" + tools);
        assertEquals("1", cells(Gogo.lineWith(tools, "itest_ranked")).get(2));
        shadowed = run("quiver:shadowed");
        assertNull("nothing is shadowed any more: " + shadowed, Gogo.lineWith(shadowed, "itest_ranked"));
        assertTrue(run("quiver:call itest_ranked").contains("from the low one"));
    }

    @Test
    public void callGoesThroughTheEngineAndPrintsTheResult() throws Exception {
        register(ProbeTools.registerEcho(context, "itest_shell_echo", "Echoes 'text'"));
        Eventually.until("itest_shell_echo listed", () -> run("quiver:tools"), out -> out.contains("itest_shell_echo"), BOUND);

        String out = run("quiver:call itest_shell_echo '{\"text\":\"hello from gogo\"}'");
        System.err.println("[ShellCommandsIT] quiver:call\n" + out);
        assertTrue(out, out.contains("echo: hello from gogo"));
        assertTrue(out, out.contains("isError: false"));

        String unknown = run("quiver:call itest_no_such_tool");
        assertTrue(unknown, unknown.contains("error -32602"));

        String badJson = run("quiver:call itest_shell_echo 'not json'");
        assertTrue(badJson, badJson.contains("not JSON"));

        // the shell's session is closed after each call
        String sessions = run("quiver:sessions");
        assertFalse(sessions, sessions.contains("quiver-shell"));
    }

    /**
     * {@code quiver:upstreams} with a real upstream: this framework's own endpoint declared as an {@code http}
     * server in {@code mcp-servers.json}, exposing only one probe tool ({@code include}, so that its
     * re-exposed tools are not taken in again), then removed.
     */
    @Test
    public void upstreamsShowsEachServerWithTheRevisionItAgreedAndOneInDetail() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        Path etc = Path.of(context.getProperty("quiver.etc"));
        Path servers = Files.createDirectories(etc).resolve("mcp-servers.json");
        ConfigurationAdmin admin = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        org.osgi.service.cm.Configuration settings = admin.createFactoryConfiguration("io.quiver.upstream", "?");
        // a client that closes an idle SSE connection is noticed at the next write: the keep-alive, every second here
        org.osgi.service.cm.Configuration transport = admin.getConfiguration("io.quiver.transport.http", "?");
        Hashtable<String, Object> keepAlive = new Hashtable<>();
        keepAlive.put("sseKeepAliveMs", "1000");
        transport.update(keepAlive);
        register(OperatorTools.registerText(context, "itest_self_text", 0, "through the upstream"));
        // what the launcher announces once its start is over: the upstream bundle starts its servers then
        Hashtable<String, Object> started = new Hashtable<>();
        started.put("quiver.started", Boolean.TRUE);
        register(context.registerService(Object.class, new Object(), started));
        try {
            try {
                assertTrue(run("quiver:upstreams").startsWith("No upstream servers"));
                Hashtable<String, Object> props = new Hashtable<>();
                props.put("server", "self");
                props.put("include", new String[] {"itest_self_*"});
                // nor its prompts and resources (this framework's own would come back as self.* again and again)
                props.put("prompts", Boolean.FALSE);
                props.put("resources", Boolean.FALSE);
                settings.update(props);
                Files.writeString(servers, "{\"mcpServers\": {\"self\": {\"type\": \"http\", \"url\": \"" + endpoint + "\"}}}");

                // ready once agreed, listed and its tools registered: never "ready" with a count still to come
                String table = Eventually.until("self ready in quiver:upstreams", () -> run("quiver:upstreams"),
                        out -> words(Gogo.lineWith(out, "self")).get(2).equals("ready"), BOUND);
                assertEquals(table, List.of("self", "http", "ready", "2026-07-28", "1", "0", "0", "0"),
                        words(Gogo.lineWith(table, "self")).subList(0, 8));
                System.err.println("[ShellCommandsIT] quiver:upstreams\n" + table);
                assertEquals(table, List.of("NAME", "KIND", "STATE", "PROTOCOL", "TOOLS", "PROMPTS", "RESOURCES", "RESTARTS",
                        "DETAIL"), words(table.lines().findFirst().orElseThrow()));
                assertEquals(table, endpoint.toString(), words(Gogo.lineWith(table, "self")).get(8));

                String detail = run("quiver:upstreams self");
                System.err.println("[ShellCommandsIT] quiver:upstreams self\n" + detail);
                assertTrue(detail, Gogo.lineWith(detail, "declared in").contains(servers.getFileName().toString()));
                assertTrue(detail, Gogo.lineWith(detail, "protocol").endsWith("2026-07-28"));
                assertTrue(detail, Gogo.lineWith(detail, "tools").endsWith("1"));
                assertTrue(detail, Gogo.lineWith(detail, "prompts").endsWith("0"));
                assertTrue(detail, Gogo.lineWith(detail, "last error").endsWith("-"));
                assertTrue(detail, detail.contains("stderr (last 0 lines):"));
                assertEquals("No upstream server nobody.", run("quiver:upstreams nobody").trim());

                String call = Eventually.until("self.itest_self_text callable", () -> run("quiver:call self.itest_self_text"),
                        out -> out.contains("through the upstream"), BOUND);
                assertTrue(call, call.contains("isError: false"));
            } finally {
                Files.deleteIfExists(servers);
                settings.delete();
            }
            String gone = Eventually.until("self gone from quiver:upstreams", () -> run("quiver:upstreams"),
                    out -> out.startsWith("No upstream servers"), BOUND);
            assertTrue(gone, gone.contains(servers.toString()));
            // the stopped upstream's listen stream (a 2026-07-28 server's tool changes) is closed at this end too
            Eventually.until("no stream left open at the transport", () -> run("quiver:transports"),
                    out -> cells(Gogo.lineWith(out, "http")).get(1).startsWith("0 / "), BOUND);
        } finally {
            transport.delete();
        }
    }

    @Test
    public void transportsShowsTheHttpTransportAgainstItsLimits() throws Exception {
        String out = Eventually.until("the http transport in quiver:transports", () -> run("quiver:transports"),
                o -> Gogo.lineWith(o, "http") != null, BOUND);
        System.err.println("[ShellCommandsIT] quiver:transports\n" + out);
        List<String> http = cells(Gogo.lineWith(out, "http"));
        // idle here: no stream open, nothing unread, nothing waiting; the limits are the defaults
        assertTrue(http.toString(), http.get(1).startsWith("0 / "));
        assertTrue(http.toString(), http.get(2).startsWith("0 / "));
        assertTrue(http.toString(), http.get(3).endsWith("/ 64"));
        assertEquals(http.toString(), "0 / 1024", http.get(4));
    }

    @Test
    public void theShellMayCallAdminOnlyToolsUnderTheDefaultPermissions() throws Exception {
        // bundles_list is admin-only under the permissions bundle's defaults; the shell is the operator
        register(ProbeTools.registerEcho(context, "bundles_list", "Echoes 'text' under an admin tool's name"));
        Eventually.until("bundles_list listed", () -> run("quiver:tools"), out -> out.contains("bundles_list"), BOUND);
        String out = run("quiver:call bundles_list '{\"text\":\"as admin\"}'");
        assertTrue(out, out.contains("echo: as admin"));
    }

    @Test
    public void problemsReportsAnUnresolvableBundleAndAComponentThatFailsToActivate() throws Exception {
        // installed through the shell itself, from a file: it stays INSTALLED and the reason is printed
        Path jar = context.getDataFile("unresolvable-tool.jar").toPath();
        Files.copy(FixtureBundles.toolBundle("io.quiver.itests.shell.unresolvable", SLOW_CLASS, "itest_shell_unresolvable")
                .importing("io.quiver.itests.nothing.exports.this;version=\"[9,10)\"").build(), jar,
                StandardCopyOption.REPLACE_EXISTING);
        String install = run("quiver:install " + jar);
        System.err.println("[ShellCommandsIT] quiver:install\n" + install);
        assertTrue(install, install.contains("Not started"));
        assertTrue(install, install.contains("INSTALLED"));
        Bundle unresolvable = find("io.quiver.itests.shell.unresolvable");
        installed.add(unresolvable);
        assertEquals(Bundle.INSTALLED, unresolvable.getState());

        System.err.println("[ShellCommandsIT] Expected: SCR logs the failure of the ExplodingTool component below.");
        Bundle exploding = context.installBundle("quiver-itest:shell-exploding",
                FixtureBundles.toolBundle("io.quiver.itests.shell.exploding", EXPLODING_CLASS, "itest_shell_exploding").build());
        installed.add(exploding);
        exploding.start();

        String problems = Eventually.until("both problems reported", () -> run("quiver:problems"),
                out -> out.contains("io.quiver.itests.shell.unresolvable") && out.contains("io.quiver.itests.shell.exploding"),
                BOUND);
        System.err.println("[ShellCommandsIT] quiver:problems\n" + problems);
        String bundleLine = Gogo.lineWith(problems, "io.quiver.itests.shell.unresolvable");
        assertTrue(bundleLine, bundleLine.contains("missing package"));
        assertTrue(bundleLine, bundleLine.contains("io.quiver.itests.nothing.exports.this"));
        String componentLine = Gogo.lineWith(problems, "io.quiver.itests.shell.exploding");
        assertTrue(componentLine, componentLine.contains("failed activation"));
        assertTrue(componentLine, componentLine.contains("ExplodingTool refuses to be activated"));

        // neither harms anything else: the catalog, calls and the other bundles go on
        String tools = run("quiver:tools");
        assertFalse(tools, tools.contains("itest_shell_exploding"));
        assertFalse(tools, tools.contains("itest_shell_unresolvable"));
        register(ProbeTools.registerEcho(context, "itest_after_problems", "Still works"));
        String call = Eventually.until("a healthy tool still works", () -> run("quiver:call itest_after_problems '{\"text\":\"ok\"}'"),
                out -> out.contains("echo: ok"), BOUND);
        assertTrue(call, call.contains("isError: false"));
        String bundles = run("quiver:bundles");
        for (String name : List.of("io.quiver.core", "io.quiver.transport.http", "io.quiver.shell")) {
            assertTrue(name + " is ACTIVE: " + bundles, Gogo.lineWith(bundles, name + " ").contains("ACTIVE"));
        }

        // and the shell removes it again
        String uninstall = run("quiver:uninstall " + unresolvable.getBundleId());
        assertTrue(uninstall, uninstall.contains("Uninstalled bundle " + unresolvable.getBundleId()));
        assertEquals(Bundle.UNINSTALLED, unresolvable.getState());
        assertFalse(run("quiver:problems").contains("io.quiver.itests.shell.unresolvable"));
        assertTrue(run("quiver:uninstall 0").contains("Refusing"));
    }

    @Test
    public void installRefusesASecondCopyOfAnInstalledBundleAndLeavesNothingBehind() throws Exception {
        // a bundle named like the core, another version: the framework itself would install it beside the real one
        Bundle core = find("io.quiver.core");
        Path jar = context.getDataFile("impostor-core.jar").toPath();
        Files.copy(FixtureBundles.toolBundle("io.quiver.core", SLOW_CLASS, "itest_shell_impostor").build(), jar,
                StandardCopyOption.REPLACE_EXISTING);
        String location = jar.toUri().toString();
        String install = run("quiver:install " + jar);
        System.err.println("[ShellCommandsIT] quiver:install of a second io.quiver.core\n" + install);
        assertTrue(install, install.startsWith("Refused " + location + ": io.quiver.core is already installed"));
        assertTrue(install, install.contains("quiver:update " + core.getBundleId()));
        assertNull("no bundle stays at " + location, context.getBundle(location));
        assertEquals(List.of(core.getBundleId()), bundleIds("io.quiver.core"));
        assertFalse(run("quiver:tools").contains("itest_shell_impostor"));

        // the same jar under a name of its own installs, starts and serves its tool
        Path own = context.getDataFile("own-name.jar").toPath();
        Files.copy(FixtureBundles.toolBundle("io.quiver.itests.shell.ownname", SLOW_CLASS, "itest_shell_own_name").build(), own,
                StandardCopyOption.REPLACE_EXISTING);
        String second = run("quiver:install " + own);
        installed.add(find("io.quiver.itests.shell.ownname"));
        assertTrue(second, second.contains("State: ACTIVE"));
        Eventually.until("its tool is listed", () -> run("quiver:tools"), out -> out.contains("itest_shell_own_name"), BOUND);

        // and another version of it from another place is refused the same way, naming the first copy (the
        // framework would take it: only a name and version both installed are refused by the framework itself)
        Path copy = context.getDataFile("own-name-2.jar").toPath();
        Files.copy(FixtureBundles.toolBundle("io.quiver.itests.shell.ownname", SLOW_CLASS, "itest_shell_own_name")
                .version("2.0.0").build(), copy, StandardCopyOption.REPLACE_EXISTING);
        String again = run("quiver:install " + copy);
        System.err.println("[ShellCommandsIT] quiver:install of a second version\n" + again);
        assertTrue(again, again.contains("io.quiver.itests.shell.ownname is already installed"));
        assertTrue(again, again.contains(own.toUri().toString()));
        assertNull(context.getBundle(copy.toUri().toString()));
        assertEquals(1, bundleIds("io.quiver.itests.shell.ownname").size());

        // its file replaced by the impostor: an update would turn it into a second core, so it is refused and the
        // bundle keeps its content, its name and its tool
        Bundle ownBundle = find("io.quiver.itests.shell.ownname");
        Files.copy(jar, own, StandardCopyOption.REPLACE_EXISTING);
        String update = run("quiver:update " + ownBundle.getBundleId());
        System.err.println("[ShellCommandsIT] quiver:update to a second io.quiver.core\n" + update);
        assertTrue(update, update.startsWith("Refused the update of bundle " + ownBundle.getBundleId()));
        assertTrue(update, update.contains("io.quiver.core is already installed"));
        assertEquals("io.quiver.itests.shell.ownname", ownBundle.getSymbolicName());
        assertEquals(Bundle.ACTIVE, ownBundle.getState());
        assertEquals(List.of(core.getBundleId()), bundleIds("io.quiver.core"));
        String tools = run("quiver:tools");
        assertTrue(tools, tools.contains("itest_shell_own_name"));
        assertFalse(tools, tools.contains("itest_shell_impostor"));
    }

    private List<Long> bundleIds(String symbolicName) {
        List<Long> ids = new ArrayList<>();
        for (Bundle bundle : context.getBundles()) {
            if (symbolicName.equals(bundle.getSymbolicName())) {
                ids.add(bundle.getBundleId());
            }
        }
        return ids;
    }

    private String run(String command) throws Exception {
        return Gogo.run(context, command, BOUND);
    }

    private ServiceRegistration<?> register(ServiceRegistration<?> registration) {
        registrations.add(registration);
        return registration;
    }

    private Bundle find(String symbolicName) {
        for (Bundle bundle : context.getBundles()) {
            if (symbolicName.equals(bundle.getSymbolicName())) {
                return bundle;
            }
        }
        throw new AssertionError("no bundle " + symbolicName);
    }

    /** The cells of a table line: columns are two or more spaces apart. */
    /** A line's words, padded with empty ones to seven (none: seven empty ones). */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>(line == null ? List.of() : List.of(line.trim().split("\\s+")));
        while (words.size() < 7) {
            words.add("");
        }
        return words;
    }

    private static List<String> cells(String line) {
        return line == null ? List.of() : List.of(line.trim().split("\\s{2,}"));
    }
}
