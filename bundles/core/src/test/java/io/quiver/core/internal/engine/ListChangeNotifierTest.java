package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.MessageSink;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.Scope;
import io.quiver.core.internal.request.Listeners;
import io.quiver.core.internal.request.SessionRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.IntNode;

/** When a listener hears of a list change: soon after additions, a window after a burst with a removal. */
class ListChangeNotifierTest {

    private static final long WINDOW_MS = 800;
    private static final Set<Scope> GLOBAL = Set.of(Scope.GLOBAL);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    private ListChangeNotifier notifier;

    @BeforeEach
    void listen() {
        Listeners listeners = new Listeners();
        MessageSink sink = new MessageSink() {
            @Override
            public void send(byte[] message) {
                heard.add(new String(message, StandardCharsets.UTF_8));
            }

            @Override
            public void complete(byte[] response) {
            }
        };
        listeners.open(new Listeners.Listener(IntNode.valueOf(1), Set.of(Catalog.Kind.TOOLS), Set.of(), sink,
                CallerIdentity.ANONYMOUS.in("acme", null)),
                10, Integer.MAX_VALUE, "ack".getBytes(StandardCharsets.UTF_8));
        heard.clear();
        notifier = new ListChangeNotifier(new SessionRegistry(), listeners, timer, () -> WINDOW_MS);
    }

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void anAdditionIsAnnouncedWithoutTheRemovalWindow() throws Exception {
        long start = System.nanoTime();
        notifier.changed(Catalog.Kind.TOOLS, false, GLOBAL);
        notifier.changed(Catalog.Kind.TOOLS, false, GLOBAL);
        String first = heard.poll(WINDOW_MS, TimeUnit.MILLISECONDS);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertNotNull(first, "an addition is announced before the window has passed");
        assertTrue(first.contains("notifications/tools/list_changed"), first);
        assertTrue(tookMs < WINDOW_MS, tookMs + " ms");
        assertNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "two additions in a row: one notification");
    }

    @Test
    void anUpdateRemovingAndAddingAgainIsAnnouncedOnce() throws Exception {
        notifier.changed(Catalog.Kind.TOOLS, true, GLOBAL);
        notifier.changed(Catalog.Kind.TOOLS, false, GLOBAL);
        assertNotNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "announced once the entry is back");
        assertNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "the removal gave no second notification");
    }

    @Test
    void anUpdateWhoseServicesComeBackSlowlyIsStillAnnouncedOnce() throws Exception {
        notifier.changed(Catalog.Kind.TOOLS, true, GLOBAL);
        notifier.changed(Catalog.Kind.TOOLS, true, GLOBAL);
        notifier.changed(Catalog.Kind.TOOLS, false, GLOBAL);
        Thread.sleep(4 * ListChangeNotifier.ADDED_QUIET_MS);
        notifier.changed(Catalog.Kind.TOOLS, false, GLOBAL);
        assertNotNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "announced once both are back");
        assertNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "not once per service that came back");
    }

    @Test
    void aRemovalWaitsForTheWindowInCaseTheEntryComesBack() throws Exception {
        long start = System.nanoTime();
        notifier.changed(Catalog.Kind.TOOLS, true, GLOBAL);
        assertNull(heard.poll(WINDOW_MS / 2, TimeUnit.MILLISECONDS), "nothing before the window");
        assertNotNull(heard.poll(4 * WINDOW_MS, TimeUnit.MILLISECONDS));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= WINDOW_MS);
        assertEquals(0, heard.size());
    }

    @Test
    void aChangeInAnotherTenantIsNotHeard() throws Exception {
        notifier.changed(Catalog.Kind.TOOLS, false, Set.of(Scope.tenant("globex")));
        notifier.changed(Catalog.Kind.TOOLS, false, Set.of(new Scope("globex", "acme")));
        assertNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "the listener is in tenant acme");
    }

    @Test
    void aChangeInTheListenersTenantOrAnyProjectOfItsOwnIsHeard() throws Exception {
        notifier.changed(Catalog.Kind.TOOLS, false, Set.of(Scope.tenant("acme")));
        assertNotNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "its tenant's catalog changed");
        notifier.changed(Catalog.Kind.TOOLS, false, Set.of(new Scope("acme", "showcase")));
        assertNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS),
                "a project's change is not the tenant as a whole's (the listener is in no project)");
    }

    @Test
    void aBurstAcrossTenantsReachesEveryoneWhoseCatalogChanged() throws Exception {
        notifier.changed(Catalog.Kind.TOOLS, false, Set.of(Scope.tenant("globex")));
        notifier.changed(Catalog.Kind.TOOLS, false, Set.of(Scope.tenant("acme")));
        assertNotNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "acme's change was part of the burst");
        assertNull(heard.poll(2 * WINDOW_MS, TimeUnit.MILLISECONDS), "once");
    }
}
