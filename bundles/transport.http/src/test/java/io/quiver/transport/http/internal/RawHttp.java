package io.quiver.transport.http.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 exchange over a plain socket, as a client sees it on the wire: the status, the headers, and the body
 * read whole or one SSE event at a time as it arrives. Reads give up after 10 s, so a test never hangs.
 */
final class RawHttp implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private int status;
    private final Map<String, List<String>> headers = new LinkedHashMap<>();
    /** The body's bytes decoded (chunks unwrapped) but not handed out yet. */
    private final StringBuilder pending = new StringBuilder();
    private boolean chunked;
    private long remaining = -1;
    private boolean ended;

    private RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(10_000);
        this.in = socket.getInputStream();
    }

    /** Sends a request and reads the status line and headers of its answer. */
    static RawHttp send(int port, String method, String target, Map<String, String> headers, String body)
            throws IOException {
        RawHttp http = new RawHttp(new Socket("127.0.0.1", port));
        http.request(method, target, headers, body);
        http.readHead();
        return http;
    }

    /** A connection on which nothing is sent yet: {@link #sendMore} sends what the test writes, as it is. */
    static RawHttp connect(int port) throws IOException {
        return new RawHttp(new Socket("127.0.0.1", port));
    }

    /** Only sends a request; {@link #readHead} reads its answer. */
    static RawHttp sendOnly(int port, String method, String target, Map<String, String> headers, String body)
            throws IOException {
        RawHttp http = new RawHttp(new Socket("127.0.0.1", port));
        http.request(method, target, headers, body);
        return http;
    }

    private void request(String method, String target, Map<String, String> headers, String body) throws IOException {
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        if (!headers.containsKey("Host")) {
            head.append("Host: 127.0.0.1:").append(socket.getPort()).append("\r\n");
        }
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            head.append("Content-Length: ").append(bytes.length).append("\r\n");
        }
        head.append("\r\n");
        // one write: the body comes with the headers, as a small message usually does
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = Arrays.copyOf(headBytes, headBytes.length + bytes.length);
        System.arraycopy(bytes, 0, request, headBytes.length, bytes.length);
        OutputStream out = socket.getOutputStream();
        out.write(request);
        out.flush();
    }

    /** Sends more bytes of the request (a body that comes late, or broken). */
    void sendMore(String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    void readHead() throws IOException {
        String line = line();
        if (line == null) {
            throw new IOException("no answer");
        }
        status = Integer.parseInt(line.split(" ")[1]);
        for (line = line(); line != null && !line.isEmpty(); line = line()) {
            int colon = line.indexOf(':');
            headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        chunked = "chunked".equalsIgnoreCase(header("Transfer-Encoding"));
        String length = header("Content-Length");
        remaining = chunked || length == null ? -1 : Long.parseLong(length);
        ended = remaining == 0 || status == 204 || status == 304;
    }

    int status() {
        return status;
    }

    /** A header's (first) value, or null. */
    String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null ? null : values.get(0);
    }

    /** The rest of the body, to its end. */
    String body() throws IOException {
        while (!ended) {
            more();
        }
        String all = pending.toString();
        pending.setLength(0);
        return all;
    }

    /**
     * The next SSE event (or comment) without its blank line, as soon as it is whole; null once the stream ended
     * (what came after the last whole event is dropped).
     */
    String nextEvent() throws IOException {
        while (true) {
            int end = pending.indexOf("\n\n");
            if (end >= 0) {
                String event = pending.substring(0, end);
                pending.delete(0, end + 2);
                return event;
            }
            if (ended) {
                return null;
            }
            more();
        }
    }

    /** Reads the next piece of the body. */
    private void more() throws IOException {
        if (chunked) {
            String size = line();
            if (size != null && size.isEmpty()) {
                size = line(); // the end of the chunk before: Jetty sends it with the next chunk's size
            }
            if (size == null) {
                ended = true;
                return;
            }
            int n = Integer.parseInt(size.split(";")[0].trim(), 16);
            if (n == 0) {
                line(); // the blank line after the last chunk
                ended = true;
                return;
            }
            pending.append(new String(in.readNBytes(n), StandardCharsets.UTF_8));
            return;
        }
        byte[] buffer = new byte[remaining < 0 ? 8192 : (int) Math.min(8192, remaining)];
        int n = in.read(buffer);
        if (n < 0) {
            ended = true;
            return;
        }
        pending.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        if (remaining > 0) {
            remaining -= n;
            ended = remaining == 0;
        }
    }

    /** A line of the head or of the chunk framing, without its CRLF; null at the end of the connection. */
    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    /** Whether the server closed the connection: the next read finds its end. */
    boolean closedByServer() throws IOException {
        return in.read() < 0;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
