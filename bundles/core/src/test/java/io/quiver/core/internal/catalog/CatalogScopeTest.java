package io.quiver.core.internal.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Tenants and projects each see their cascade: project over tenant over global, never another tenant's entries. */
class CatalogScopeTest {

    private static final AtomicLong IDS = new AtomicLong(9000);
    private static final CallerIdentity ANYONE = CallerIdentity.ANONYMOUS;
    private static final CallerIdentity ACME = ANYONE.in("acme", null);
    private static final CallerIdentity ACME_SHOWCASE = ANYONE.in("acme", "showcase");
    private static final CallerIdentity ACME_OTHER = ANYONE.in("acme", "other");
    private static final CallerIdentity GLOBEX = ANYONE.in("globex", null);

    /** Bundle 1 is com.acme.tools, bundle 2 com.globex.tools, the rest org.example. */
    private final Catalog catalog = new Catalog(id -> id == 1 ? "com.acme.tools" : id == 2 ? "com.globex.tools"
            : "org.example");
    private final List<String> heard = new ArrayList<>();

    CatalogScopeTest() {
        catalog.addListener((kind, removed, scopes) -> heard.add(kind + " " + labels(scopes)));
    }

    @Test
    void eachCallerSeesTheGlobalEntriesItsTenantsAndItsProjects() {
        bind("clock", 3, null, null, "global clock");
        bind("crm", 3, "acme", null, "acme crm");
        bind("deck", 3, "acme", "showcase", "showcase deck");
        bind("ledger", 3, "globex", null, "globex ledger");

        assertEquals(List.of("clock"), names(ANYONE));
        assertEquals(List.of("clock", "crm"), names(ACME));
        assertEquals(List.of("clock", "crm", "deck"), names(ACME_SHOWCASE));
        assertEquals(List.of("clock", "crm"), names(ACME_OTHER));
        assertEquals(List.of("clock", "ledger"), names(GLOBEX));
        assertNull(catalog.tools(GLOBEX).get("crm"), "another tenant's tool cannot be resolved by name");
        assertNull(catalog.tools(ACME).get("deck"), "a project's tool is not the tenant's as a whole");
    }

    @Test
    void theMoreSpecificEntryShadowsTheLessSpecificOfTheSameName() {
        bind("search", 3, null, null, "global search");
        bind("search", 3, "acme", null, "acme search");
        bind("search", 3, "acme", "showcase", "showcase search");

        assertEquals("global search", description(GLOBEX, "search"));
        assertEquals("acme search", description(ACME, "search"));
        assertEquals("showcase search", description(ACME_SHOWCASE, "search"));
        assertEquals(List.of("search"), names(ACME_SHOWCASE), "one tool of the name, not three");
    }

    @Test
    void aViewIsMergedOnceUntilOneOfItsLayersChanges() {
        bind("clock", 3, null, null, "global clock");
        bind("crm", 3, "acme", null, "acme crm");
        RankedRegistry.Snapshot<ToolEntry> first = catalog.tools(ACME);
        assertSame(first, catalog.tools(ACME));
        assertSame(catalog.tools(ANYONE), catalog.tools(GLOBEX), "a tenant with nothing of its own reads the global view");
        bind("billing", 3, "acme", null, "acme billing");
        assertEquals(List.of("billing", "clock", "crm"), names(ACME));
    }

    @Test
    void listenersHearWhichScopeChanged() {
        long crm = bind("crm", 3, "acme", null, "acme crm");
        bind("deck", 3, "acme", "showcase", "deck");
        bind("clock", 3, null, null, "clock");
        unbind(crm);
        assertEquals(List.of("TOOLS acme", "TOOLS acme/showcase", "TOOLS (global)", "TOOLS acme"), heard);
    }

    @Test
    void resourcesAndPromptsAreScopedLikeTools() {
        Map<String, Object> resource = new HashMap<>(Map.of("mcp.resource.uri", "file:///acme/plan.md",
                "mcp.resource.name", "plan", "service.id", IDS.incrementAndGet(), Catalog.TENANT, "acme"));
        catalog.bindResource(request -> List.of(), resource);
        Map<String, Object> prompt = new HashMap<>(Map.of("mcp.prompt.name", "review", "service.id", IDS.incrementAndGet(),
                Catalog.TENANT, "acme", Catalog.PROJECT, "showcase"));
        catalog.bindPrompt(request -> null, prompt);
        assertEquals(List.of("file:///acme/plan.md"), List.copyOf(catalog.resources(ACME).winners().keySet()));
        assertEquals(List.of(), List.copyOf(catalog.resources(GLOBEX).winners().keySet()));
        assertEquals(List.of("review"), List.copyOf(catalog.prompts(ACME_SHOWCASE).winners().keySet()));
        assertEquals(List.of(), List.copyOf(catalog.prompts(ACME).winners().keySet()));
        assertEquals(List.of("RESOURCES acme", "PROMPTS acme/showcase"), heard);
    }

    @Test
    void aServiceMayServeSeveralTenants() {
        bind("shared", 3, new String[] {"acme", "globex"}, null, "shared");
        assertEquals(List.of("shared"), names(ACME));
        assertEquals(List.of("shared"), names(GLOBEX));
        assertEquals(List.of(), names(ANYONE));
    }

    @Test
    void badScopePropertiesAreRefusedAsProblems() {
        long orphan = bind("orphan", 3, null, "showcase", "a project without its tenant");
        long traversal = bind("dots", 3, "../acme", null, "not a tenant name");
        assertEquals(List.of(), names(ANYONE));
        assertTrue(problem(orphan).contains("mcp.project needs mcp.tenant"), problem(orphan));
        assertTrue(problem(traversal).contains("mcp.tenant '../acme'"), problem(traversal));
    }

    @Test
    void theOperatorsRulesScopeABundleWithoutRebuildingIt() {
        bind("crm", 1, null, null, "acme's bundle");
        bind("ledger", 2, null, null, "globex's bundle");
        bind("own", 1, "globex", null, "its own property wins over the rules");
        assertEquals(List.of("crm", "ledger"), names(ANYONE), "no rule yet: global");

        ScopeRule acme = rule("tenants", "acme", "bundles", "com.acme.*");
        catalog.bindScopeRule(acme);
        assertEquals(List.of("ledger"), names(ANYONE));
        assertEquals(List.of("crm", "ledger"), names(ACME));
        assertEquals(List.of("ledger", "own"), names(GLOBEX));
        bind("crm.report", 1, null, null, "a new tool of the scoped bundle");
        assertEquals(List.of("crm", "crm.report", "ledger"), names(ACME));
        assertEquals(List.of("ledger"), names(ANYONE));

        catalog.unbindScopeRule(acme);
        assertEquals(List.of("crm", "crm.report", "ledger"), names(ANYONE), "the rule removed: global again");
    }

    @Test
    void aRuleThatNamesAPromptPlacesItsCompleterWithIt() {
        // before, a rule's names were matched against the completer's key ("ref/prompt review"): never, so the
        // completer stayed global and another tenant's prompt of the same name got acme's values
        Map<String, Object> completer = new HashMap<>(Map.of("mcp.completion.refType", "ref/prompt",
                "mcp.completion.ref", "review", "service.id", IDS.incrementAndGet(), "service.bundleid", 3L));
        catalog.bindCompleter(request -> null, completer);
        String key = Catalog.completerKey("ref/prompt", "review");
        assertNotNull(catalog.completers(GLOBEX).get(key), "no rule yet: global");
        catalog.bindScopeRule(rule("tenants", "acme", "names", "review"));
        assertNotNull(catalog.completers(ACME).get(key));
        assertNull(catalog.completers(GLOBEX).get(key), "placed with its prompt");
        assertNull(catalog.completers(ANYONE).get(key));
    }

    @Test
    void aRuleNarrowedByNamesAndProjects() {
        bind("crm.read", 1, null, null, "");
        bind("crm.write", 1, null, null, "");
        catalog.bindScopeRule(rule("tenants", "acme", "projects", "showcase, pilot", "bundles", "com.acme.*",
                "names", "*.write"));
        assertEquals(List.of("crm.read"), names(ANYONE));
        assertEquals(List.of("crm.read"), names(ACME));
        assertEquals(List.of("crm.read", "crm.write"), names(ACME_SHOWCASE));
        assertEquals(List.of("crm.read", "crm.write"), names(ANYONE.in("acme", "pilot")));
    }

    @Test
    void aBrokenRuleHidesWhatItMatchesInsteadOfShowingItToEveryone() {
        bind("crm", 1, null, null, "");
        ScopeRule typo = rule("tenants", "acme corp", "bundles", "com.acme.*");
        catalog.bindScopeRule(typo);
        assertFalse(typo.problems().isEmpty());
        assertEquals(List.of(), names(ANYONE));
        assertEquals(List.of(), names(ANYONE.in("acme", null)));
        catalog.unbindScopeRule(typo);
        assertEquals(List.of("crm"), names(ANYONE));
    }

    @Test
    void untilTheRulesOfEtcHaveArrivedWhatTheyMayScopeIsSeenByNoOne() {
        catalog.awaitRules(2, 60_000);
        bind("crm", 1, null, null, "acme's, as soon as its rule is here");
        bind("own", 3, "globex", null, "scoped by its own property: no rule needed");
        assertEquals(List.of(), names(ANYONE), "not global for a moment");
        assertEquals(List.of("own"), names(GLOBEX));
        catalog.bindScopeRule(rule("tenants", "acme", "bundles", "com.acme.*"));
        assertEquals(List.of(), names(ACME), "one of two rules");
        catalog.bindScopeRule(rule("tenants", "initech", "bundles", "com.initech.*"));
        assertEquals(List.of("crm"), names(ACME));
        assertEquals(List.of(), names(ANYONE));
    }

    @Test
    void aRuleThatNeverArrivesStopsTheWaitAfterItsTime() throws Exception {
        catalog.awaitRules(1, 100);
        bind("clock", 3, null, null, "");
        assertEquals(List.of(), names(ANYONE));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (names(ANYONE).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(List.of("clock"), names(ANYONE));
    }

    @Test
    void theOperatorListsEveryScopesTools() {
        bind("clock", 3, null, null, "");
        bind("crm", 3, "acme", null, "");
        bind("deck", 3, "acme", "showcase", "");
        Map<String, List<String>> byScope = new HashMap<>();
        catalog.toolsByScope().forEach((scope, tools) -> byScope.put(scope.label(), List.copyOf(tools.winners().keySet())));
        assertEquals(Map.of("", List.of("clock"), "acme", List.of("crm"), "acme/showcase", List.of("deck")), byScope);
    }

    // -------------------------------------------------------------------------------------------

    private long bind(String name, long bundleId, Object tenant, String project, String description) {
        long id = IDS.incrementAndGet();
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", description);
        props.put("service.id", id);
        props.put("service.bundleid", bundleId);
        if (tenant != null) {
            props.put(Catalog.TENANT, tenant);
        }
        if (project != null) {
            props.put(Catalog.PROJECT, project);
        }
        Tool tool = call -> Outcome.text(description);
        catalog.bindTool(tool, props);
        return id;
    }

    private void unbind(long id) {
        catalog.unbindTool(Map.of("service.id", id));
    }

    private static ScopeRule rule(String... keyValues) {
        Map<String, Object> props = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        props.put("service.pid", "io.quiver.scope~test");
        return new ScopeRule(props);
    }

    private List<String> names(CallerIdentity caller) {
        return List.copyOf(catalog.tools(caller).winners().keySet());
    }

    private String description(CallerIdentity caller, String name) {
        return catalog.tools(caller).get(name).descriptor().description();
    }

    private String problem(long serviceId) {
        return catalog.problems().stream().filter(p -> p.serviceId() == serviceId).findFirst().orElseThrow().reason();
    }

    private static String labels(Set<Scope> scopes) {
        return String.join(",", scopes.stream().map(s -> s.label().isEmpty() ? "(global)" : s.label()).sorted().toList());
    }
}
