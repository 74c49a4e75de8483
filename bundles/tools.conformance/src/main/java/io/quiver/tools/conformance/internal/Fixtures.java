package io.quiver.tools.conformance.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reference values the MCP conformance suite expects (texts, base64 data, MIME types), and
 * the few helpers the fixture components share.
 */
final class Fixtures {

    /** A 1x1 red PNG. */
    static final String PNG_BASE64 =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

    /** A tiny WAV file (one 16-bit mono sample). */
    static final String WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

    static final String PNG = "image/png";
    static final String WAV = "audio/wav";
    static final String TEXT = "text/plain";
    static final String JSON = "application/json";

    /** The logger name of the fixture's log messages. */
    static final String LOGGER = "conformance-fixture";

    /** Pause between the steps of the logging and progress tools. */
    static final long STEP_MILLIS = 50;

    private Fixtures() {
    }

    /**
     * An unmodifiable map that keeps its keys in the given order, so JSON objects go out as written.
     *
     * @param keysAndValues key, value, key, value, ... (keys are strings)
     */
    static Map<String, Object> ordered(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must come in pairs");
        }
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    /** A string argument, or {@code otherwise} when it is absent or not a string. */
    static String string(Map<String, Object> arguments, String key, String otherwise) {
        return arguments.get(key) instanceof String s ? s : otherwise;
    }

    /** Sleeps; an interrupt (cancellation, timeout, shutdown) ends the wait with an exception. */
    static void pause(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }
}
