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
        assertTrue(MediaTypes.accepts(" TEXT/Event-Stream ;q=1 ,application/json", MediaTypes.SSE), "case and spaces");
        assertTrue(MediaTypes.accepts("text/html,,application/json", MediaTypes.JSON), "an empty element");
        assertFalse(MediaTypes.accepts("application/jsonx, text/event-streams", MediaTypes.JSON));
        assertFalse(MediaTypes.accepts("application/jsonx, text/event-streams", MediaTypes.SSE));
        assertFalse(MediaTypes.accepts("texts/*", MediaTypes.SSE));
        assertFalse(MediaTypes.accepts("text/x*", MediaTypes.SSE));
        assertFalse(MediaTypes.accepts("", MediaTypes.JSON));
        assertFalse(MediaTypes.accepts("*/json", MediaTypes.JSON));
    }

    @Test
    void aRangeWithQualityZeroSaysNotThisAndTheMostSpecificRangeDecides() {
        assertFalse(MediaTypes.accepts("application/json;q=0, text/event-stream", MediaTypes.JSON));
        assertTrue(MediaTypes.accepts("application/json;q=0, text/event-stream", MediaTypes.SSE));
        assertFalse(MediaTypes.accepts("*/*, application/json; Q=0.000", MediaTypes.JSON), "the type itself wins over */*");
        assertFalse(MediaTypes.accepts("text/event-stream;level=1;q=0.0, */*", MediaTypes.SSE));
        assertFalse(MediaTypes.accepts("text/*;q=0, */*", MediaTypes.SSE), "type/* wins over */*");
        assertTrue(MediaTypes.accepts("text/*;q=0, text/event-stream", MediaTypes.SSE), "the type wins over type/*");
        assertTrue(MediaTypes.accepts("application/json;q=0.001", MediaTypes.JSON), "a low quality is still a yes");
        assertTrue(MediaTypes.accepts("application/json;q=0, application/json", MediaTypes.JSON), "either one admits");
        assertTrue(MediaTypes.accepts("application/json;qs=0", MediaTypes.JSON), "another parameter");
        assertFalse(MediaTypes.accepts("*/*;q=0", MediaTypes.JSON));
    }

    @Test
    void contentTypeMayCarryACharset() {
        assertTrue(MediaTypes.isJson("application/json; charset=utf-8"));
        assertFalse(MediaTypes.isJson("text/plain"));
        assertFalse(MediaTypes.isJson(null));
        assertTrue(MediaTypes.isJson(" Application/JSON "));
        assertFalse(MediaTypes.isJson("application/json-seq"));
        assertFalse(MediaTypes.isJson(""));
    }

    @Test
    void aCharsetOtherThanUtf8OrAnEncodedBodyIsNotReadAsIfItWereNot() {
        // before, Latin-1 was decoded as UTF-8 (-32700 for any accented letter) and gzip was a parse error
        assertTrue(MediaTypes.isJson("application/json;charset=\"UTF-8\""));
        assertTrue(MediaTypes.isJson("application/json; v=1; charset=utf8"));
        assertFalse(MediaTypes.isJson("application/json; charset=iso-8859-1"));
        assertFalse(MediaTypes.isJson("application/json;charset=utf-16"));
        assertTrue(MediaTypes.unencoded(null));
        assertTrue(MediaTypes.unencoded(" Identity "));
        assertFalse(MediaTypes.unencoded("gzip"));
    }
}
