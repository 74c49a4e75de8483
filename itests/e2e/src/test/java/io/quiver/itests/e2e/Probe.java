package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * What an ordinary client sees while a test attacks the server: a {@code tools/call} of
 * {@code current_time} from a fresh 2026-07-28 client (no session, so no session limit in its way),
 * which must answer within a second. And raw HTTP over a socket, for the attacks the JDK client
 * cannot make (trickled bodies, streams held open by thousands).
 */
final class Probe {

    /** How fast a normal call must answer while the server is under attack. */
    static final Duration NORMAL = Duration.ofSeconds(1);

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Probe() {
    }

    /** Calls {@code current_time} and asserts it answers with a time within {@link #NORMAL}. */
    static void normalCallAnswers(String url) throws Exception {
        long t0 = System.nanoTime();
        JsonNode response = statelessCall(url, "current_time", Map.of(), Duration.ofSeconds(10));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(response.path("result").path("structuredContent").has("datetime"), response.toString());
        assertTrue(ms < NORMAL.toMillis(), "a normal tools/call took " + ms + " ms during the attack");
    }

    /** A 2026-07-28 {@code tools/call}: the JSON-RPC response (the server answers these as JSON). */
    static JsonNode statelessCall(String url, String tool, Map<String, Object> arguments, Duration timeout)
            throws Exception {
        return stateless(url, "tools/call", tool, Map.of("name", tool, "arguments", arguments), timeout);
    }

    /** A 2026-07-28 request with the envelope and headers the revision wants. */
    static JsonNode stateless(String url, String method, String name, Map<String, Object> params, Duration timeout)
            throws Exception {
        HttpResponse<String> r = statelessExchange(url, method, name, params, Map.of(), timeout);
        assertEquals(200, r.statusCode(), r.body());
        return McpClient.JSON.readTree(r.body());
    }

    /** The same request with more headers (an {@code Authorization}, say), whatever it is answered. */
    static HttpResponse<String> statelessExchange(String url, String method, String name, Map<String, Object> params,
            Map<String, String> headers, Duration timeout) throws Exception {
        String body = statelessBody(method, params);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", method)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (name != null) {
            request.header("Mcp-Name", name);
        }
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The JSON-RPC body of a 2026-07-28 request: the params with the revision's {@code _meta}. */
    static String statelessBody(String method, Map<String, Object> params) throws Exception {
        Map<String, Object> withMeta = new LinkedHashMap<>(params);
        withMeta.put("_meta", Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities", Map.of("elicitation", Map.of()),
                "io.modelcontextprotocol/clientInfo", Map.of("name", "probe", "version", "1")));
        return McpClient.JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", method,
                "params", withMeta));
    }

    /** The same request as raw HTTP/1.1 text, with its headers and length, for {@link Raw#send}. */
    static String statelessPost(String url, String method, String name, Map<String, Object> params) throws Exception {
        String body = statelessBody(method, params);
        return postHead(url, "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: " + method + "\r\n"
                + (name == null ? "" : "Mcp-Name: " + name + "\r\n")
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n") + body;
    }

    /** One raw HTTP/1.1 exchange on its own socket, for requests the JDK client will not send. */
    static final class Raw implements AutoCloseable {
        final Socket socket;
        final OutputStream out;
        final InputStream in;

        Raw(String url) throws IOException {
            this(new Socket(URI.create(url).getHost(), URI.create(url).getPort()));
        }

        /** Over a socket already connected (a TLS one, say). */
        Raw(Socket socket) throws IOException {
            this.socket = socket;
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = socket.getInputStream();
        }

        Raw send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            return this;
        }

        /** Sends if the server still reads; false when it closed the connection. */
        boolean trySend(String text) {
            try {
                send(text);
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        /** The status line's code, read from the response; -1 when the connection closed first. */
        int status() throws IOException {
            String line = line();
            return line == null || line.length() < 12 ? -1 : Integer.parseInt(line.substring(9, 12));
        }

        /** One whole JSON answer (status 200, a Content-Length): its body; more may follow on the connection. */
        JsonNode json() throws IOException {
            assertEquals(200, status());
            int length = -1;
            for (String line; (line = line()) != null && !line.isEmpty();) {
                if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                    length = Integer.parseInt(line.substring(15).strip());
                }
            }
            assertTrue(length > 0, "a JSON answer with its length");
            return McpClient.JSON.readTree(in.readNBytes(length));
        }

        /** The rest of the response until the server closes the connection (fails on a timeout). */
        String rest() throws IOException {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }

        /** One header line (without CRLF), or null at the end of the stream. */
        String line() throws IOException {
            StringBuilder b = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0) {
                if (c == '\n') {
                    return b.toString().stripTrailing();
                }
                b.append((char) c);
            }
            return b.length() == 0 ? null : b.toString();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    /** The request line and headers of a POST to the endpoint (the body and its framing follow). */
    static String postHead(String url, String extraHeaders) {
        URI uri = URI.create(url);
        return "POST " + uri.getPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + extraHeaders + "\r\n";
    }
}
