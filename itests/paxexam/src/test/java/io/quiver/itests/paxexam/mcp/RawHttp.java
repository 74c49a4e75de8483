package io.quiver.itests.paxexam.mcp;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for tests that must control the connection itself (which request goes on
 * which connection, a stream held open without a client library's threads and buffers beside it).
 */
public final class RawHttp {

    private RawHttp() {
    }

    /** A response's status line and headers (names in lower case). */
    public record Head(String status, Map<String, String> headers) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** A connection to the endpoint's host and port (5 s to connect, reads time out after 10 s). */
    public static Socket connect(URI endpoint) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()), 5_000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Writes one request to the endpoint's path in a single write; {@code body} null for none. */
    public static void send(Socket socket, URI endpoint, String method, Map<String, String> headers, String body)
            throws IOException {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method).append(' ').append(endpoint.getRawPath()).append(" HTTP/1.1\r\n")
                .append("Host: ").append(endpoint.getHost()).append(':').append(endpoint.getPort()).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(content.length).append("\r\n");
        }
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        request.write(content);
        OutputStream out = socket.getOutputStream();
        out.write(request.toByteArray());
        out.flush();
    }

    /** Reads a response's status line and headers. */
    public static Head readHead(InputStream in) throws IOException {
        String status = line(in);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
        }
        return new Head(status, headers);
    }

    /** Reads the body that follows {@code head} (Content-Length or chunked; none otherwise). */
    public static String readBody(InputStream in, Head head) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String length = head.header("Content-Length");
        String encoding = head.header("Transfer-Encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
                body.write(in.readNBytes(size));
                line(in); // the chunk's CRLF
            }
            line(in); // the last CRLF (no trailers)
        } else if (length != null) {
            body.write(in.readNBytes(Integer.parseInt(length)));
        }
        return body.toString(StandardCharsets.UTF_8);
    }

    /** One whole response: its status line, a newline and its body. */
    public static String readResponse(InputStream in) throws IOException {
        Head head = readHead(in);
        return head.status() + "\n" + readBody(in, head);
    }

    /** One line without its CRLF. */
    public static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the connection closed: " + b);
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    private static int chunkSize(InputStream in) throws IOException {
        return Integer.parseInt(line(in).split(";")[0].trim(), 16);
    }
}
