package io.quiver.bench.peers;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The floor without servlets: the same answer as {@link Floor} from a handler on Jetty 12's core API,
 * what a transport beside the servlet whiteboard could reach. Two shapes:
 * <ul>
 * <li>{@code blocking}: the handler may block, as a servlet may (Jetty runs it on a pool thread and
 * hands the selector to another, as for the servlet floor): the cost of the servlet layer alone;</li>
 * <li>{@code nonblocking}: the handler declares it never blocks, so Jetty runs it on the thread that
 * selected the connection, with no hand-off: the cost of Jetty's thread hand-off as well. A server
 * can answer this way only for work that never blocks.</li>
 * </ul>
 *
 * <p>{@code java -cp peers.jar io.quiver.bench.peers.CoreFloor blocking|nonblocking PORT}; prints
 * {@code endpoint: URL}.
 */
public final class CoreFloor extends Handler.Abstract {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] BEFORE_ID = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] AFTER_ID = (",\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
            + "\"This is a simple text response for testing.\"}],\"isError\":false}}").getBytes(StandardCharsets.UTF_8);

    CoreFloor(Invocable.InvocationType type) {
        super(type);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!"/mcp".equals(Request.getPathInContext(request)) || !"POST".equals(request.getMethod())) {
            return false;
        }
        Content.Source.asByteBufferAsync(request).whenComplete((body, failure) -> {
            if (failure != null) {
                callback.failed(failure);
                return;
            }
            try {
                JsonNode message = JSON.readTree(body.array(), body.arrayOffset() + body.position(), body.remaining());
                byte[] id = JSON.writeValueAsBytes(message.get("id"));
                ByteBuffer answer = ByteBuffer.allocate(BEFORE_ID.length + id.length + AFTER_ID.length);
                answer.put(BEFORE_ID).put(id).put(AFTER_ID).flip();
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, answer.remaining());
                response.write(true, answer, callback);
            } catch (RuntimeException e) {
                callback.failed(e);
            }
        });
        return true;
    }

    public static void main(String[] args) throws Exception {
        Invocable.InvocationType type = args.length > 0 && "nonblocking".equals(args[0])
                ? Invocable.InvocationType.NON_BLOCKING : Invocable.InvocationType.BLOCKING;
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(args.length > 1 ? Integer.parseInt(args[1]) : 0);
        server.addConnector(connector);
        server.setHandler(new CoreFloor(type));
        server.start();
        System.out.println("endpoint: http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        server.join();
    }
}
