package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MediaTypesTest {

    @Test
    void acceptHeadersAreMatchedWithWildcardsAndParameters() {
        String both = "application/json, text/event-stream";
        assertTrue(MediaTypes.accepts(both, MediaTypes.JSON));
        assertTrue(MediaTypes.accepts(both, MediaTypes.SSE));
        assertTrue(MediaTypes.accepts("*/*", MediaTypes.SSE));
        assertTrue(MediaTypes.accepts("text/*;q=0.5", MediaTypes.SSE));
        assertFalse(MediaTypes.accepts("application/json", MediaTypes.SSE));
        assertFalse(MediaTypes.accepts(null, MediaTypes.JSON));
    }

    @Test
    void contentTypeMayCarryACharset() {
        assertTrue(MediaTypes.isJson("application/json; charset=utf-8"));
        assertFalse(MediaTypes.isJson("text/plain"));
        assertFalse(MediaTypes.isJson(null));
    }
}
