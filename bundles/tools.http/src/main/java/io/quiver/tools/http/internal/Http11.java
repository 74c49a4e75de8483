package io.quiver.tools.http.internal;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 GET over a socket connected to an address the caller has already checked: no name is
 * looked up here, so what is reached is what was checked. The Host header and, for {@code https}, the TLS
 * server name (SNI) and the certificate check use the URL's host name, as any client would.
 *
 * <p>Deliberately small: GET only, one request per connection ({@code Connection: close}), bodies framed by
 * {@code Content-Length}, {@code chunked} or the end of the connection, {@code gzip} and {@code deflate}
 * decoded, every read bounded by the fetch's {@link Deadline}, the response head by {@value #MAX_HEAD} bytes.
 */
final class Http11 implements Closeable {

    /** The most bytes of a status line and headers. */
    static final int MAX_HEAD = 64 * 1024;
    private static final int MAX_HEADERS = 256;
    private static final int MAX_INTERIM = 10;

    /** The response's status line and headers (names without case). */
    record Head(int status, String reason, Map<String, List<String>> headers) {

        /** The last value of a header, or {@code null}. */
        String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
        }

        /** Every comma-separated token of a header, lower case, in order. */
        List<String> tokens(String name) {
            List<String> tokens = new ArrayList<>();
            for (String value : headers.getOrDefault(name, List.of())) {
                for (String token : value.split(",")) {
                    String t = token.trim().toLowerCase(Locale.ROOT);
                    if (!t.isEmpty()) {
                        tokens.add(t);
                    }
                }
            }
            return tokens;
        }
    }

    private final Socket socket;
    private final Deadline deadline;
    private final InputStream in;
    private Head head;
    private long declaredLength = -1;

    private Http11(Socket socket, Deadline deadline) throws IOException {
        this.socket = socket;
        this.deadline = deadline;
        this.in = new TimedInput(socket, deadline);
    }

    /**
     * Connects to an address and, for {@code https}, makes the TLS handshake for the host name.
     *
     * @param address the checked address to connect to
     * @param host the URL's host (a name, or an address literal): the TLS server name and certificate identity
     * @param tls the TLS socket factory, or {@code null} for plain {@code http}
     */
    static Http11 connect(InetAddress address, int port, String host, SSLSocketFactory tls, Deadline deadline)
            throws IOException {
        Socket plain = new Socket(Proxy.NO_PROXY); // never a SOCKS proxy from system properties: this address only
        try {
            plain.connect(new InetSocketAddress(address, port), deadline.remainingMillis());
            plain.setTcpNoDelay(true);
            if (tls == null) {
                return new Http11(plain, deadline);
            }
            String name = HostPattern.normalize(host);
            SSLSocket secure = (SSLSocket) tls.createSocket(plain, name, port, true);
            SSLParameters parameters = secure.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host
            if (Addresses.literal(name) == null) {
                try {
                    parameters.setServerNames(List.of(new SNIHostName(name)));
                } catch (IllegalArgumentException e) {
                    // not a name SNI can carry (an underscore, say): sent without; the certificate is checked all the same
                }
            }
            secure.setSSLParameters(parameters);
            secure.setSoTimeout(deadline.remainingMillis());
            try {
                secure.startHandshake();
            } catch (SocketTimeoutException e) {
                throw new Deadline.TimedOut();
            }
            return new Http11(secure, deadline);
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    /**
     * Sends the request and reads the response head (skipping interim 1xx responses).
     *
     * @param target the request target: the URL's path and query, ASCII
     * @param hostHeader the Host header: the URL's host, and its port when not the scheme's default
     * @param headers further request headers
     */
    Head get(String target, String hostHeader, Map<String, String> headers) throws IOException {
        StringBuilder request = new StringBuilder(256).append("GET ").append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(hostHeader).append("\r\n");
        headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("Connection: close\r\n\r\n");
        for (int i = 0; i < request.length(); i++) {
            char c = request.charAt(i);
            if (c > 0x7e || c < 0x20 && c != '\r' && c != '\n') {
                throw new IllegalArgumentException("the request would not be plain ASCII");
            }
        }
        OutputStream out = socket.getOutputStream();
        out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        for (int interim = 0; interim <= MAX_INTERIM; interim++) {
            Head h = readHead();
            if (h.status() >= 200 || h.status() == 101) {
                head = h;
                return h;
            }
        }
        throw new IOException("more than " + MAX_INTERIM + " interim (1xx) responses");
    }

    /** The body's length as the server declared it ({@code Content-Length}), or -1. */
    long declaredLength() {
        return declaredLength;
    }

    /**
     * The response body, de-framed and decoded ({@code gzip}, {@code deflate}), as an input stream that ends
     * with the body.
     *
     * @param rawLimit the most bytes read from the connection for it (a bound on compressed bodies too)
     */
    InputStream body(long rawLimit) throws IOException {
        int status = head.status();
        InputStream raw;
        List<String> transfer = head.tokens("Transfer-Encoding");
        if (status < 200 || status == 204 || status == 304) {
            raw = InputStream.nullInputStream();
        } else if (!transfer.isEmpty()) {
            raw = transfer.get(transfer.size() - 1).equals("chunked") ? new Chunked(in) : in;
        } else if (head.headers().containsKey("Content-Length")) {
            declaredLength = contentLength(head.headers().get("Content-Length"));
            raw = new Fixed(in, declaredLength);
        } else {
            raw = in;
        }
        InputStream body = new Capped(raw, rawLimit);
        List<String> codings = head.tokens("Content-Encoding");
        for (int i = codings.size() - 1; i >= 0; i--) {
            switch (codings.get(i)) {
                case "gzip", "x-gzip" -> body = new GZIPInputStream(body, 8192);
                case "deflate" -> body = new InflaterInputStream(body);
                case "identity" -> { }
                default -> throw new IOException("the body's Content-Encoding " + codings.get(i) + " is not supported");
            }
        }
        return body;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    // ------------------------------------------------------------------------------------------------

    private Head readHead() throws IOException {
        int budget = MAX_HEAD;
        String statusLine = readLine(budget);
        budget -= statusLine.length() + 2;
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
            throw new IOException("the server did not answer with HTTP/1.x");
        }
        int status;
        try {
            status = Integer.parseInt(statusLine.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new IOException("the server's status line is not HTTP");
        }
        String reason = statusLine.length() > 13 ? statusLine.substring(13).trim() : "";
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        String last = null;
        for (int count = 0; ; count++) {
            if (count > MAX_HEADERS) {
                throw new IOException("more than " + MAX_HEADERS + " response headers");
            }
            String line = readLine(budget);
            budget -= line.length() + 2;
            if (line.isEmpty()) {
                return new Head(status, reason, headers);
            }
            if ((line.charAt(0) == ' ' || line.charAt(0) == '\t') && last != null) {
                List<String> values = headers.get(last); // obsolete line folding: part of the previous value
                values.set(values.size() - 1, values.get(values.size() - 1) + " " + line.trim());
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("a response header is malformed");
            }
            last = line.substring(0, colon).trim();
            headers.computeIfAbsent(last, k -> new ArrayList<>()).add(line.substring(colon + 1).trim());
        }
    }

    /** One line of the head, without its CRLF (or LF). */
    private String readLine(int budget) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection closed in the response head");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
            if (line.size() > budget) {
                throw new IOException("the response head is larger than " + MAX_HEAD + " bytes");
            }
        }
    }

    private static long contentLength(List<String> values) throws IOException {
        long length = -1;
        for (String value : values) {
            for (String part : value.split(",")) {
                String t = part.trim();
                if (!t.matches("\\d{1,18}")) {
                    throw new IOException("the response's Content-Length is not a number");
                }
                long n = Long.parseLong(t);
                if (length >= 0 && n != length) {
                    throw new IOException("the response has conflicting Content-Length headers");
                }
                length = n;
            }
        }
        return length;
    }

    /** The socket's input, buffered; every read waits no longer than the fetch has left. */
    private static final class TimedInput extends InputStream {
        private final Socket socket;
        private final Deadline deadline;
        private final InputStream in;
        private final byte[] buffer = new byte[16 * 1024];
        private int pos;
        private int limit;

        TimedInput(Socket socket, Deadline deadline) throws IOException {
            this.socket = socket;
            this.deadline = deadline;
            this.in = socket.getInputStream();
        }

        private boolean fill() throws IOException {
            socket.setSoTimeout(deadline.remainingMillis());
            int n;
            try {
                n = in.read(buffer, 0, buffer.length);
            } catch (SocketTimeoutException e) {
                throw new Deadline.TimedOut();
            }
            if (n <= 0) {
                return false;
            }
            pos = 0;
            limit = n;
            return true;
        }

        @Override
        public int read() throws IOException {
            if (pos >= limit && !fill()) {
                return -1;
            }
            return buffer[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (pos >= limit && !fill()) {
                return -1;
            }
            int n = Math.min(len, limit - pos);
            System.arraycopy(buffer, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    /** A body of a declared length: the connection ending early is an error, not the end of the body. */
    private static final class Fixed extends FilterInputStream {
        private long left;

        Fixed(InputStream in, long length) {
            super(in);
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("the connection closed before the end of the body");
            }
            left -= n;
            return n;
        }
    }

    /** A {@code chunked} body (RFC 9112 section 7.1): the chunks' data, then the trailers skipped. */
    private static final class Chunked extends FilterInputStream {
        private long left;
        private boolean done;

        Chunked(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (left == 0) {
                left = nextChunk();
                if (left == 0) {
                    while (!line().isEmpty()) {
                        // trailers: not used
                    }
                    done = true;
                    return -1;
                }
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("the connection closed inside a chunk");
            }
            left -= n;
            if (left == 0 && !line().isEmpty()) {
                throw new IOException("a chunk does not end with CRLF");
            }
            return n;
        }

        private long nextChunk() throws IOException {
            String line = line();
            int semicolon = line.indexOf(';');
            String size = (semicolon >= 0 ? line.substring(0, semicolon) : line).trim();
            if (!size.matches("[0-9A-Fa-f]{1,15}")) {
                throw new IOException("a chunk size is malformed");
            }
            return Long.parseLong(size, 16);
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new EOFException("the connection closed inside the chunked body");
                }
                if (c == '\n') {
                    int end = line.length() > 0 && line.charAt(line.length() - 1) == '\r' ? line.length() - 1 : line.length();
                    return line.substring(0, end);
                }
                if (line.length() >= 4096) {
                    throw new IOException("a chunk line is too long");
                }
                line.append((char) c);
            }
        }
    }

    /** Reads at most a number of bytes from the connection, then fails: bounds compressed bodies. */
    private static final class Capped extends FilterInputStream {
        private long left;

        Capped(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                int probe = in.read();
                if (probe < 0) {
                    return -1;
                }
                throw new BodyTooLarge(-1);
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }

    /** The body is longer than the fetch may read. */
    static final class BodyTooLarge extends IOException {
        private static final long serialVersionUID = 1L;
        final long declared;

        BodyTooLarge(long declared) {
            super("the body is too large", null);
            this.declared = declared;
        }
    }
}
