package io.quiver.core.internal.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.operator.CatalogProblem;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Tools are checked when they register, and every change of the tool registry is described for the log. */
class CatalogTest {

    private static final AtomicLong IDS = new AtomicLong(500);
    private static final Tool TOOL = call -> Outcome.text("x");

    private final Catalog catalog = new Catalog();

    @Test
    void schemasThatAreNotValidJsonSchemaAreRefusedWithAOneLineReason() {
        assertRefused("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"strng\"}}}", null, "/properties/x/type");
        assertRefused("{\"type\":\"object\",\"properties\":5}", null, "/properties");
        assertRefused("{\"type\":\"object\",\"required\":\"x\"}", null, "/required");
        assertRefused("{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/missing\"}}}", null,
                "does not compile");
        assertRefused("{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"https://example.invalid/a.json\"}}}",
                null, "does not compile");
        assertRefused("{\"type\":\"object\",\"$schema\":\"https://example.com/my-dialect\"}", null, "$schema");
        assertRefused("{\"type\":\"object\"}", "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"int\"}}}",
                "outputSchema");
        assertRefused("{\"type\":\"object\"}", "{\"type\":\"string\"}", "outputSchema must be");
    }

    @Test
    void validSchemasOfEveryKnownDialectAndMcpsOwnKeywordAreTaken() {
        assertTaken("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"x-mcp-header\":\"Query\"}}}");
        assertTaken("{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\","
                + "\"properties\":{\"n\":{\"type\":\"integer\"}},\"definitions\":{\"x\":{\"type\":\"string\"}}}");
        assertTaken("{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/a\"}},"
                + "\"$defs\":{\"a\":{\"type\":\"string\"}}}");
    }

    @Test
    void iconEntriesThatAreNotWellFormedAreRefusedWithAOneLineReason() {
        for (String[] bad : new String[][] {
            {"{\"src\":\"https://example.com/a.png\"", "not JSON"},
            {"{\"mimeType\":\"image/png\"}", "has no src"},
            {"{\"src\":\"https://example.com/a.png\",\"theme\":\"neon\"}", "theme light or dark"},
            {"{\"src\":\"https://example.com/a.png\",\"sizes\":\"48x48\"}", "sizes as an array of strings"},
            {"{\"src\":\"https://example.com/a.png\",\"mimeType\":7}", "string mimeType"}}) {
            long id = IDS.incrementAndGet();
            Map<String, Object> props = props(id, "{\"type\":\"object\"}", null);
            props.put("mcp.tool.icons", new String[] {"https://example.com/ok.png", bad[0]});
            catalog.bindTool(TOOL, props);
            assertNull(catalog.tools(CallerIdentity.ANONYMOUS).get("t" + id), bad[0]);
            String reason = catalog.problems().stream().filter(p -> p.serviceId() == id).findFirst().orElseThrow().reason();
            assertTrue(reason.startsWith("tool t" + id + ": mcp.tool.icons entry") && reason.contains(bad[1])
                    && !reason.contains("\n"), reason);
        }
    }

    @Test
    void promptsResourcesAndTemplatesTakeIconsAsToolsDoAndAreRefusedForABadOne() {
        long id = IDS.incrementAndGet();
        catalog.bindPrompt(request -> null, new java.util.HashMap<>(Map.of("mcp.prompt.name", "p" + id, "service.id", id,
                "mcp.prompt.icons", new String[] {"https://example.com/p.png", "{\"src\":\"https://example.com/d.png\","
                        + "\"theme\":\"dark\"}"})));
        assertEquals(List.of(new io.quiver.api.content.Icon("https://example.com/p.png"),
                new io.quiver.api.content.Icon("https://example.com/d.png", null, null, "dark")),
                catalog.prompts(CallerIdentity.ANONYMOUS).get("p" + id).descriptor().icons());
        long bad = IDS.incrementAndGet();
        catalog.bindResource(request -> List.of(), new java.util.HashMap<>(Map.of("mcp.resource.uri", "test://r" + bad,
                "mcp.resource.name", "r", "service.id", bad, "mcp.resource.icons", "{\"theme\":\"dark\"}")));
        assertNull(catalog.resources(CallerIdentity.ANONYMOUS).get("test://r" + bad));
        String reason = catalog.problems().stream().filter(p -> p.serviceId() == bad).findFirst().orElseThrow().reason();
        assertEquals("resource test://r" + bad + ": mcp.resource.icons entry {\"theme\":\"dark\"} has no src", reason);
        long template = IDS.incrementAndGet();
        catalog.bindTemplate(request -> List.of(), new java.util.HashMap<>(Map.of("mcp.template.uriTemplate", "test://t/{x}",
                "mcp.template.name", "t", "service.id", template, "mcp.template.icons", "https://example.com/t.png")));
        assertEquals(List.of(new io.quiver.api.content.Icon("https://example.com/t.png")),
                catalog.templates(CallerIdentity.ANONYMOUS).get("test://t/{x}").descriptor().icons());
    }

    @Test
    void aToolsOwnMetaIsListedAndABadOneRefused() {
        long id = IDS.incrementAndGet();
        Map<String, Object> props = props(id, "{\"type\":\"object\"}", null);
        props.put("mcp.tool.meta", "{\"anthropic/maxResultSizeChars\":200000}");
        catalog.bindTool(TOOL, props);
        ToolEntry tool = catalog.tools(CallerIdentity.ANONYMOUS).get("t" + id);
        assertEquals(200000, tool.descriptor().meta().path("anthropic/maxResultSizeChars").asInt());

        long none = IDS.incrementAndGet();
        Map<String, Object> empty = props(none, "{\"type\":\"object\"}", null);
        empty.put("mcp.tool.meta", "");
        catalog.bindTool(TOOL, empty);
        assertNull(catalog.tools(CallerIdentity.ANONYMOUS).get("t" + none).descriptor().meta(), "the annotation's default");

        long bad = IDS.incrementAndGet();
        Map<String, Object> array = props(bad, "{\"type\":\"object\"}", null);
        array.put("mcp.tool.meta", "[1]");
        catalog.bindTool(TOOL, array);
        assertNull(catalog.tools(CallerIdentity.ANONYMOUS).get("t" + bad));
    }

    @Test
    void toolsAreReadSideBySideAndAReadingOvertakenByTheServicesRemovalIsDropped() throws Exception {
        long slow = IDS.incrementAndGet();
        SlowProps slowProps = new SlowProps(props(slow, "{\"type\":\"object\"}", null));
        Thread reading = new Thread(() -> catalog.bindTool(TOOL, slowProps));
        reading.start();
        assertTrue(slowProps.reading.await(10, TimeUnit.SECONDS));

        // another bundle's tool is read and listed while the first is still being read
        long quick = IDS.incrementAndGet();
        CompletableFuture<Void> other = CompletableFuture.runAsync(
                () -> catalog.bindTool(TOOL, props(quick, "{\"type\":\"object\"}", null)));
        other.get(10, TimeUnit.SECONDS);
        assertNotNull(catalog.tools(CallerIdentity.ANONYMOUS).get("t" + quick));

        // the first tool's service leaves before its reading is done: the reading must not list it
        catalog.unbindTool(slowProps);
        slowProps.release.countDown();
        reading.join(10_000);
        assertNull(catalog.tools(CallerIdentity.ANONYMOUS).get("t" + slow), "a tool whose service is gone");
        assertTrue(catalog.problems().isEmpty(), catalog.problems().toString());
    }

    @Test
    void whenAServiceChangesWhileItIsReadTheLaterReadingCounts() throws Exception {
        long id = IDS.incrementAndGet();
        SlowProps first = new SlowProps(props(id, "{\"type\":\"object\"}", null));
        first.put("mcp.tool.title", "first");
        Thread reading = new Thread(() -> catalog.bindTool(TOOL, first));
        reading.start();
        assertTrue(first.reading.await(10, TimeUnit.SECONDS));
        Map<String, Object> second = props(id, "{\"type\":\"object\"}", null);
        second.put("mcp.tool.title", "second");
        catalog.bindTool(TOOL, second);
        first.release.countDown();
        reading.join(10_000);
        assertEquals("second", catalog.tools(CallerIdentity.ANONYMOUS).get("t" + id).descriptor().title());
    }

    /** Service properties whose description is read only once the test lets it. */
    private static final class SlowProps extends HashMap<String, Object> {
        final CountDownLatch reading = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        SlowProps(Map<String, Object> props) {
            super(props);
        }

        @Override
        public Object get(Object key) {
            if ("mcp.tool.description".equals(key) && release.getCount() > 0) {
                reading.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.get(key);
        }
    }

    @Test
    void theLifecycleOfAToolIsDescribedLineByLine() {
        ToolLog log = new ToolLog(id -> "b" + id + " 1.0.0", () -> false);
        RankedRegistry<ToolEntry> registry = new RankedRegistry<>();
        RankedRegistry.Snapshot<ToolEntry> empty = registry.snapshot();
        registry.put(entry("greet", 1, 0, 10, "v1"));
        RankedRegistry.Snapshot<ToolEntry> one = registry.snapshot();
        assertEquals(List.of("Tool greet added (b10 1.0.0)"), log.describe(empty, one));
        registry.put(entry("greet", 2, 5, 11, "v1"));
        RankedRegistry.Snapshot<ToolEntry> shadowing = registry.snapshot();
        assertEquals(List.of("Tool greet of b11 1.0.0 (ranking 5) shadows the one of b10 1.0.0 (ranking 0)"),
                log.describe(one, shadowing));
        registry.put(entry("greet", 3, -1, 12, "v1"));
        assertEquals(List.of("Tool greet of b12 1.0.0 (ranking -1) is shadowed by the one of b11 1.0.0 (ranking 5)"),
                log.describe(shadowing, registry.snapshot()));
        RankedRegistry.Snapshot<ToolEntry> three = registry.snapshot();
        registry.remove(2);
        assertEquals(List.of("Tool greet of b10 1.0.0 promoted: the one of b11 1.0.0 is gone"),
                log.describe(three, registry.snapshot()));
        RankedRegistry.Snapshot<ToolEntry> two = registry.snapshot();
        registry.put(entry("greet", 1, 0, 10, "v2"));
        assertEquals(List.of("Tool greet updated (b10 1.0.0)"), log.describe(two, registry.snapshot()));
        RankedRegistry.Snapshot<ToolEntry> updated = registry.snapshot();
        registry.remove(3);
        assertEquals(List.of("Tool greet of b12 1.0.0 removed (it was shadowed)"),
                log.describe(updated, registry.snapshot()));
        RankedRegistry.Snapshot<ToolEntry> last = registry.snapshot();
        registry.remove(1);
        assertEquals(List.of("Tool greet removed (b10 1.0.0)"), log.describe(last, registry.snapshot()));
    }

    /**
     * The registry updates only the names a change touches, and the log looks only at them: checked
     * against ranking every entry from scratch and describing every name, over random registrations,
     * renames, re-rankings, updates and removals of services sharing a few names.
     */
    @Test
    void incrementalChangesAgreeWithRankingEverythingAgain() {
        ToolLog log = new ToolLog(id -> "b" + id + " 1.0.0", () -> false);
        RankedRegistry<ToolEntry> registry = new RankedRegistry<>();
        Map<Long, RankedRegistry.Entry<ToolEntry>> model = new HashMap<>();
        java.util.Random random = new java.util.Random(42);
        String[] names = {"a", "b", "c", "d", "e"};
        for (int step = 0; step < 1_500; step++) {
            long serviceId = 1 + random.nextInt(12);
            RankedRegistry.Snapshot<ToolEntry> before = registry.snapshot();
            RankedRegistry.Entry<ToolEntry> was = registry.entry(serviceId);
            RankedRegistry.Entry<ToolEntry> now = null;
            if (random.nextInt(4) == 0) {
                registry.remove(serviceId);
                model.remove(serviceId);
            } else {
                now = entry(names[random.nextInt(names.length)], serviceId, random.nextInt(3) - 1, serviceId,
                        "v" + random.nextInt(2));
                registry.put(now);
                model.put(serviceId, now);
            }
            RankedRegistry.Snapshot<ToolEntry> after = registry.snapshot();
            java.util.TreeMap<String, Long> expected = new java.util.TreeMap<>();
            List<Long> expectedShadowed = new java.util.ArrayList<>();
            model.values().stream()
                    .sorted(java.util.Comparator.comparing((RankedRegistry.Entry<ToolEntry> e) -> e.key())
                            .thenComparing(e -> -e.ranking()).thenComparingLong(e -> e.serviceId()))
                    .forEach(e -> {
                        if (expected.putIfAbsent(e.key(), e.serviceId()) != null) {
                            expectedShadowed.add(e.serviceId());
                        }
                    });
            java.util.TreeMap<String, Long> winners = new java.util.TreeMap<>();
            after.winners().forEach((k, e) -> winners.put(k, e.serviceId()));
            assertEquals(expected, winners, "winners after step " + step);
            assertEquals(expectedShadowed, after.shadowed().stream().map(e -> e.serviceId()).toList(),
                    "shadowed after step " + step);
            java.util.Set<String> touched = new java.util.HashSet<>();
            if (was != null) {
                touched.add(was.key());
            }
            if (now != null) {
                touched.add(now.key());
            }
            assertEquals(log.describe(before, after), log.describe(before, after, touched), "log of step " + step);
        }
    }

    // -------------------------------------------------------------------------------------------

    private static RankedRegistry.Entry<ToolEntry> entry(String name, long serviceId, int ranking, long bundleId,
            String description) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", description);
        props.put("service.bundleid", bundleId);
        ToolEntry tool = ToolEntry.from(TOOL, props, new SchemaCheck());
        return new RankedRegistry.Entry<>(name, serviceId, ranking, tool);
    }

    private void assertRefused(String input, String output, String reasonPart) {
        long id = IDS.incrementAndGet();
        catalog.bindTool(TOOL, props(id, input, output));
        assertNull(catalog.tools(CallerIdentity.ANONYMOUS).get("t" + id), input);
        CatalogProblem problem = catalog.problems().stream().filter(p -> p.serviceId() == id).findFirst().orElse(null);
        assertNotNull(problem, "a refused tool is listed as a problem");
        assertTrue(problem.reason().contains(reasonPart), problem.reason());
        assertTrue(problem.reason().startsWith("tool t" + id + ": "), problem.reason());
        assertTrue(!problem.reason().contains("\n"), "one line: " + problem.reason());
    }

    private void assertTaken(String input) {
        long id = IDS.incrementAndGet();
        catalog.bindTool(TOOL, props(id, input, null));
        assertNotNull(catalog.tools(CallerIdentity.ANONYMOUS).get("t" + id), () -> input + " " + catalog.problems());
    }

    private static Map<String, Object> props(long id, String input, String output) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", "t" + id);
        props.put("mcp.tool.description", "test");
        props.put("mcp.tool.inputSchema", input);
        if (output != null) {
            props.put("mcp.tool.outputSchema", output);
        }
        props.put("service.id", id);
        return props;
    }
}
