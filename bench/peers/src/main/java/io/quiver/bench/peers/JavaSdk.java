package io.quiver.bench.peers;

import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.http.HttpServlet;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official Java SDK's server on its servlet transport and bare Jetty 12, with the same trivial tool
 * ({@code test_simple_text}) Quiver answers in the benchmark.
 *
 * <p>{@code java -cp peers.jar io.quiver.bench.peers.JavaSdk stateful|stateless PORT}; prints
 * {@code endpoint: URL}.
 */
public final class JavaSdk {

    private static final String TEXT = "This is a simple text response for testing.";

    private JavaSdk() {
    }

    public static void main(String[] args) throws Exception {
        boolean stateless = args.length > 0 && args[0].equals("stateless");
        JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(JsonMapper.builder().build());
        McpSchema.Tool tool = McpSchema.Tool.builder().name("test_simple_text")
                .description("Tests simple text content response")
                .inputSchema(Map.of("type", "object")).build();
        McpSchema.ServerCapabilities capabilities = McpSchema.ServerCapabilities.builder().tools(false).build();
        HttpServlet servlet;
        if (stateless) {
            HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
                    .jsonMapper(json).messageEndpoint("/mcp").build();
            McpServer.sync(transport).serverInfo("java-sdk-stateless", "2.1.0").capabilities(capabilities)
                    .tools(McpStatelessServerFeatures.SyncToolSpecification.builder().tool(tool)
                            .callHandler((context, request) -> McpSchema.CallToolResult.builder()
                                    .addTextContent(TEXT).isError(false).build()).build())
                    .build();
            servlet = transport;
        } else {
            HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider
                    .builder().jsonMapper(json).mcpEndpoint("/mcp").build();
            McpServer.sync(transport).serverInfo("java-sdk", "2.1.0").capabilities(capabilities)
                    .tools(McpServerFeatures.SyncToolSpecification.builder().tool(tool)
                            .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
                                    .addTextContent(TEXT).isError(false).build()).build())
                    .build();
            servlet = transport;
        }
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(args.length > 1 ? Integer.parseInt(args[1]) : 0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/mcp");
        server.setHandler(context);
        server.start();
        System.out.println("endpoint: http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        server.join();
    }
}
