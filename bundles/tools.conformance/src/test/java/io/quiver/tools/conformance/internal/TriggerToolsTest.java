package io.quiver.tools.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.Prompt;
import io.quiver.testing.FakeToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The trigger tools toggle a real service registration: every call is one catalog change. */
class TriggerToolsTest {

    private static String text(Tool tool) throws Exception {
        Outcome.Done done = assertInstanceOf(Outcome.Done.class, tool.call(FakeToolCall.of("trigger", Map.of())));
        return assertInstanceOf(TextContent.class, done.result().content().get(0)).text();
    }

    @Test
    void toolTriggerAddsThenRemovesTheDynamicTool() throws Exception {
        FakeBundleContext bundle = new FakeBundleContext();
        TriggerToolChangeTool trigger = new TriggerToolChangeTool(bundle.context);
        assertTrue(bundle.services.isEmpty(), "nothing is registered before the first call");

        assertEquals("Mutation triggered: test_dynamic_tool added", text(trigger));
        assertEquals(1, bundle.services.size());
        FakeBundleContext.Service dynamic = bundle.services.get(0);
        Tool tool = assertInstanceOf(Tool.class, dynamic.service());
        assertEquals("test_dynamic_tool", dynamic.properties().get("mcp.tool.name"));
        assertTrue(((String) dynamic.properties().get("mcp.tool.name")).matches("[A-Za-z0-9_.-]{1,128}"));
        assertFalse(((String) dynamic.properties().get("mcp.tool.description")).isBlank());
        assertEquals("{\"type\":\"object\"}", dynamic.properties().get("mcp.tool.inputSchema"));
        assertInstanceOf(Outcome.Done.class, tool.call(FakeToolCall.of("test_dynamic_tool", Map.of())));

        assertEquals("Mutation triggered: test_dynamic_tool removed", text(trigger));
        assertTrue(bundle.services.isEmpty());
        assertEquals("Mutation triggered: test_dynamic_tool added", text(trigger));
        assertEquals(1, bundle.services.size());
    }

    @Test
    void deactivationRemovesARegisteredDynamicTool() throws Exception {
        FakeBundleContext bundle = new FakeBundleContext();
        TriggerToolChangeTool trigger = new TriggerToolChangeTool(bundle.context);
        text(trigger);
        trigger.deactivate();
        assertTrue(bundle.services.isEmpty());
        trigger.deactivate(); // nothing left to remove
    }

    @Test
    void promptTriggerTogglesTheDynamicPrompt() throws Exception {
        FakeBundleContext bundle = new FakeBundleContext();
        TriggerPromptChangeTool trigger = new TriggerPromptChangeTool(bundle.context);

        assertEquals("Mutation triggered: test_dynamic_prompt added", text(trigger));
        FakeBundleContext.Service dynamic = bundle.services.get(0);
        Prompt prompt = assertInstanceOf(Prompt.class, dynamic.service());
        assertEquals("test_dynamic_prompt", dynamic.properties().get("mcp.prompt.name"));
        assertFalse(((String) dynamic.properties().get("mcp.prompt.description")).isBlank());
        assertEquals(1, prompt.get(new FakeRequests.Render("test_dynamic_prompt", Map.of())).messages().size());

        assertEquals("Mutation triggered: test_dynamic_prompt removed", text(trigger));
        assertTrue(bundle.services.isEmpty());
        trigger.deactivate();
    }

    @Test
    void toggleRegistersOnceAndUnregistersOnce() {
        List<String> events = new ArrayList<>();
        ServiceToggle toggle = new ServiceToggle(() -> {
            events.add("register");
            return () -> events.add("unregister");
        });
        toggle.off();
        assertEquals(List.of(), events, "off without a registration does nothing");
        assertTrue(toggle.flip());
        assertTrue(toggle.isOn());
        assertFalse(toggle.flip());
        assertFalse(toggle.isOn());
        assertTrue(toggle.flip());
        toggle.off();
        toggle.off();
        assertEquals(List.of("register", "unregister", "register", "unregister"), events);
    }

    @Test
    void unregisteringAServiceTheFrameworkAlreadyRemovedIsQuiet() {
        FakeBundleContext bundle = new FakeBundleContext();
        ServiceToggle toggle = ServiceToggle.of(bundle.context, Tool.class, new DynamicTool(), DynamicTool.PROPERTIES);
        assertTrue(toggle.flip());
        bundle.services.clear(); // as if the bundle stopped
        toggle.off();
        assertFalse(toggle.isOn());
        assertTrue(bundle.services.isEmpty());
    }
}
