package io.quiver.bench.spring;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The Spring AI MCP server (WebMVC, Streamable HTTP, sync) with the trivial tool every server in
 * bench/run.sh answers.
 *
 * <p>{@code java -jar bench-spring.jar --server.port=PORT} (0: any free port); prints {@code endpoint: URL}.
 */
@SpringBootApplication
public class SpringPeer {

    public static void main(String[] args) {
        SpringApplication.run(SpringPeer.class, args);
    }

    @EventListener
    void started(WebServerInitializedEvent event) {
        System.out.println("endpoint: http://127.0.0.1:" + event.getWebServer().getPort() + "/mcp");
    }

    @Component
    static class Tools {

        @McpTool(name = "test_simple_text", description = "Tests simple text content response")
        String testSimpleText() {
            return "This is a simple text response for testing.";
        }
    }
}
