package io.quiver.core.internal.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quiver.core.internal.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What each revision's lists and handshake show: titles of resources, templates and prompts came with 2025-06-18, the
 * completions capability with 2025-03-26; a strict client of an earlier revision refuses members it does not know.
 */
class DescriptorViewsTest {

    private static JsonNode written(Object value, Class<?> view) {
        return Json.MAPPER.readTree(Json.MAPPER.writerWithView(view).writeValueAsBytes(value));
    }

    @Test
    void titlesAreShownFrom20250618() {
        Object[] described = {new ResourceDescriptor("test://a", "a", "The A", null, null, null),
            new TemplateDescriptor("test://{x}", "x", "The X", null, null, null),
            new PromptDescriptor("p", "The P", null, null, List.of())};
        for (Object descriptor : described) {
            assertEquals("", written(descriptor, Views.R20241105.class).path("title").asString(""), descriptor.toString());
            assertEquals("", written(descriptor, Views.R20250326.class).path("title").asString(""), descriptor.toString());
            assertEquals("The ", written(descriptor, Views.R20250618.class).path("title").asString().substring(0, 4));
            assertEquals("The ", written(descriptor, Views.R20260728.class).path("title").asString().substring(0, 4));
        }
    }

    @Test
    void theCompletionsCapabilityIsShownFrom20250326() {
        ServerCapabilities all = ServerCapabilities.all(null);
        assertEquals(false, written(all, Views.R20241105.class).has("completions"));
        assertEquals(true, written(all, Views.R20241105.class).has("logging"));
        assertEquals(true, written(all, Views.R20250326.class).has("completions"));
    }
}
