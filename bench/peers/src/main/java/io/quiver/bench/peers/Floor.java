package io.quiver.bench.peers;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The servlet floor: bare Jetty 12 (ee10) and Jackson, no MCP. It parses each POSTed JSON-RPC request
 * and answers the {@code tools/call} result Quiver's trivial tool gives, with the request's id: what
 * any MCP server on a servlet stack pays at least.
 *
 * <p>{@code java -cp peers.jar io.quiver.bench.peers.Floor PORT}; prints {@code endpoint: URL}.
 */
public final class Floor extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] BEFORE_ID = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] AFTER_ID = (",\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
            + "\"This is a simple text response for testing.\"}],\"isError\":false}}").getBytes(StandardCharsets.UTF_8);

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        JsonNode request = JSON.readTree(req.getInputStream());
        byte[] id = JSON.writeValueAsBytes(request.get("id"));
        resp.setContentType("application/json");
        resp.setContentLength(BEFORE_ID.length + id.length + AFTER_ID.length);
        var out = resp.getOutputStream();
        out.write(BEFORE_ID);
        out.write(id);
        out.write(AFTER_ID);
    }

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(args.length > 0 ? Integer.parseInt(args[0]) : 0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new ServletHolder(new Floor()), "/mcp");
        server.setHandler(context);
        server.start();
        System.out.println("endpoint: http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        server.join();
    }
}
