package io.quiver.bench.quarkus;

import io.quarkiverse.mcp.server.Tool;

/** The trivial tool every server in bench/run.sh answers. */
public class Tools {

    @Tool(name = "test_simple_text", description = "Tests simple text content response")
    String testSimpleText() {
        return "This is a simple text response for testing.";
    }
}
