package io.quiver.bench.quarkus;

import io.quarkiverse.mcp.server.Tool;
import io.smallrye.common.annotation.NonBlocking;

/** The trivial tool every server in bench/run.sh answers. */
public class Tools {

    @Tool(name = "test_simple_text", description = "Tests simple text content response")
    String testSimpleText() {
        return "This is a simple text response for testing.";
    }

    /** The same, declared non-blocking: run on the event loop that read the request, no worker hand-off. */
    @NonBlocking
    @Tool(name = "test_simple_text_nb", description = "Tests simple text content response (non-blocking)")
    String testSimpleTextNonBlocking() {
        return "This is a simple text response for testing.";
    }
}
