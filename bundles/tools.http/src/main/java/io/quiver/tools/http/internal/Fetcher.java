package io.quiver.tools.http.internal;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * Fetches a URL under a {@link Policy}: every hop (the URL, then each redirect, followed here and never by
 * Jetty) is checked against the allowed hosts, its name is resolved here, every address it resolves to
 * is checked, and the connection goes to one of those checked addresses ({@link PinnedTransport}), so a
 * name that resolves differently a moment later (DNS rebinding) cannot lead anywhere unchecked.
 *
 * <p>HTTP is Jetty's {@link HttpClient} (HTTP/1.1), started on the first fetch and stopped by
 * {@link #close()}: a server whose fetch tool is never called runs none of its threads. Jetty never looks
 * a name up for it (its {@link org.eclipse.jetty.util.SocketAddressResolver} refuses every name), follows
 * no redirect, keeps no cookie and decodes no body: gzip and deflate are decoded here, so that
 * {@code maxBytes} counts decoded bytes and the compressed bytes read are bounded too.
 */
final class Fetcher implements AutoCloseable {

    /** Looks a host name up: every address it has. */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** Why a fetch did not return a body, in words for the model. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;
        /** Refused by the policy (as opposed to a failure of the network or the server). */
        final boolean refused;

        Failure(String message, boolean refused) {
            super(message, null, false, false);
            this.refused = refused;
        }
    }

    /**
     * A fetched body.
     *
     * @param url the URL the body came from (after redirects)
     * @param redirects the URLs that redirected, in order (empty when none did)
     * @param contentType the {@code Content-Type} header, or {@code null}
     * @param cut whether the body went on past {@code maxBytes} and was cut there ({@code overLimit = truncate})
     */
    record Fetched(URI url, List<URI> redirects, int status, String contentType, byte[] body, boolean cut) {
    }

    /** The prefix of the names of the client's threads ({@value}-N, {@value}-scheduler-N). */
    static final String THREADS = "quiver-fetch";
    /** The most threads of the client's pool: its I/O is non-blocking, the callers wait on their own threads. */
    static final int MAX_THREADS = 8;
    /** The most bytes of a response's status line and headers. */
    static final int MAX_HEAD = 64 * 1024;
    /** How long one address may take to accept the connection before the next checked address is tried. */
    static final long CONNECT_TIMEOUT_MS = 10_000;
    /** How often a wait for the response head looks at the deadline and the call's cancellation. */
    private static final long POLL_MS = 100;
    private static final String ACCEPT = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,"
            + "application/json;q=0.9,*/*;q=0.8";

    private final Resolver resolver;
    private final SSLContext tls;
    private HttpClient client;
    private boolean closed;

    Fetcher(Resolver resolver, SSLContext tls) {
        this.resolver = resolver;
        this.tls = tls;
    }

    /**
     * With the system's name service and the JVM's default TLS settings (trust store, protocols), less the
     * cipher suites Jetty excludes as weak (CBC with SHA-1, RSA key exchange).
     */
    static Fetcher standard() {
        try {
            return new Fetcher(InetAddress::getAllByName, SSLContext.getDefault());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no default TLS context", e);
        }
    }

    /** Stops the HTTP client, if it was started, and its threads; a fetch under way fails. */
    @Override
    public void close() {
        HttpClient running;
        synchronized (this) {
            closed = true;
            running = client;
            client = null;
        }
        if (running != null) {
            stop(running);
        }
    }

    private static void stop(HttpClient http) {
        try {
            http.stop();
        } catch (Exception e) {
            // best effort: what is left are daemon threads, which stop() has interrupted
        }
    }

    /** The HTTP client, started on first use. */
    private synchronized HttpClient client() throws IOException {
        if (closed) {
            throw new IOException("the fetch tool is stopping");
        }
        if (client == null) {
            HttpClient started = newClient(tls);
            try {
                started.start();
            } catch (Exception e) {
                stop(started);
                throw new IOException("the HTTP client did not start (" + e + ")", e);
            }
            // No decoding by Jetty: gzip and deflate are decoded here, under maxBytes (and Accept-Encoding is ours).
            started.getContentDecoderFactories().clear();
            client = started;
        }
        return client;
    }

    private static HttpClient newClient(SSLContext tls) {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 1, 60_000);
        threads.setName(THREADS);
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        SslContextFactory.Client ssl = new SslContextFactory.Client();
        ssl.setSslContext(tls);
        ssl.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the URL's host
        ssl.setSNIProvider(Fetcher::serverName);
        HttpClientTransportOverHTTP transport = new HttpClientTransportOverHTTP();
        transport.setHeaderCacheCaseSensitive(true); // header values as the server sent them, not Jetty's spelling
        HttpClient http = new HttpClient(transport);
        http.setName(THREADS);
        http.setExecutor(threads);
        http.setScheduler(new ScheduledExecutorScheduler(THREADS + "-scheduler", true));
        http.setSslContextFactory(ssl);
        // Every request carries a PinnedTransport, which needs no lookup: a name reaching the resolver is a bug.
        http.setSocketAddressResolver((host, port, promise) -> promise.failed(new UnknownHostException(
                "fetch connects only to addresses it has checked, and was asked to look up " + host)));
        http.setFollowRedirects(false);
        http.setHttpCookieStore(new HttpCookieStore.Empty());
        http.setUserAgentField(null);
        http.setMaxResponseHeadersSize(MAX_HEAD);
        http.setConnectTimeout(CONNECT_TIMEOUT_MS);
        http.setIdleTimeout(30_000);          // a connection left behind by an abandoned request closes
        http.setDestinationIdleTimeout(1_000); // and each request's own destination goes once it is unused
        return http;
    }

    /**
     * The TLS server name (SNI): the URL's host when it is a name, as the JDK would send it, but also when it
     * has no dot ({@code intranet}); none for an address literal or a name SNI cannot carry.
     */
    private static List<SNIServerName> serverName(SSLEngine engine, List<SNIServerName> names) {
        String host = engine.getPeerHost();
        if (!names.isEmpty() || host == null || Addresses.literal(host) != null) {
            return names;
        }
        try {
            return List.of(new SNIHostName(host));
        } catch (IllegalArgumentException e) {
            return names; // sent without (an underscore, say); the certificate is checked all the same
        }
    }

    /**
     * Fetches a URL.
     *
     * @param cancelled whether the call was cancelled (checked before every wait)
     */
    Fetched fetch(URI url, Policy policy, BooleanSupplier cancelled) throws Failure {
        Deadline deadline = new Deadline(policy.timeoutMs(), cancelled);
        List<URI> redirects = new ArrayList<>();
        URI current = url;
        try {
            while (true) {
                Hop hop = hop(current, redirects, policy);
                List<InetAddress> addresses = addresses(hop, redirects, policy, deadline);
                try (Exchange exchange = send(hop, addresses, policy, deadline)) {
                    Response response = exchange.response();
                    int status = response.getStatus();
                    String location = last(response.getHeaders(), HttpHeader.LOCATION);
                    if (status >= 300 && status < 400 && status != 304 && location != null) {
                        if (redirects.size() >= policy.maxRedirects()) {
                            throw new Failure(where(current, redirects) + " redirects again, and the most redirects"
                                    + " followed is " + policy.maxRedirects() + " (maxRedirects)", true);
                        }
                        redirects.add(current);
                        current = next(current, location, redirects);
                        continue;
                    }
                    if (status < 200 || status > 299) {
                        String reason = response.getReason() == null ? "" : response.getReason().trim();
                        throw new Failure("Failed to fetch " + where(current, redirects) + ": the server answered HTTP "
                                + status + (reason.isEmpty() ? "" : " " + reason), false);
                    }
                    return read(exchange, current, redirects, policy, deadline);
                }
            }
        } catch (Deadline.TimedOut e) {
            throw new Failure("Failed to fetch " + where(current, redirects) + ": no complete answer within "
                    + policy.timeoutMs() + " ms (timeoutMs)", false);
        } catch (Deadline.Cancelled e) {
            throw new Failure("The fetch of " + where(current, redirects) + " was cancelled", false);
        } catch (SSLException e) {
            throw new Failure("Failed to fetch " + where(current, redirects) + ": the TLS connection failed ("
                    + e.getMessage() + ")", false);
        } catch (IOException e) {
            throw new Failure("Failed to fetch " + where(current, redirects) + ": " + e.getMessage(), false);
        }
    }

    /** One request: where it goes. */
    private record Hop(URI url, boolean secure, String host, int port) {
    }

    /** Checks a URL's form and its host against the allow-list. */
    private static Hop hop(URI url, List<URI> redirects, Policy policy) throws Failure {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        String from = redirects.isEmpty() ? "" : redirected(redirects) + ", ";
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new Failure("Refused: " + from + url + " is not an http or https URL", true);
        }
        if (url.getRawUserInfo() != null) {
            throw new Failure("Refused: " + from + "the URL carries a user name or password; fetch sends no"
                    + " credentials", true);
        }
        String host = url.getHost();
        if (host == null || host.isEmpty()) {
            throw new Failure("Refused: " + from + url + " has no host name Quiver can read (write"
                    + " internationalized names in their xn-- form)", true);
        }
        boolean secure = scheme.equals("https");
        int port = url.getPort() >= 0 ? url.getPort() : secure ? 443 : 80;
        if (port == 0) {
            throw new Failure("Refused: " + from + url + " names port 0", true);
        }
        if (!policy.allowsHost(host, port)) {
            throw new Failure("Refused: " + from + "the host " + HostPattern.normalize(host)
                    + (url.getPort() >= 0 ? ":" + port : "") + " is not allowed. The hosts this server may fetch"
                    + " from are: " + policy.hostsText() + " (allowedHosts, set by the server's operator)", true);
        }
        return new Hop(url, secure, host, port);
    }

    /** Resolves a hop's host here, once, and checks every address. */
    private List<InetAddress> addresses(Hop hop, List<URI> redirects, Policy policy, Deadline deadline)
            throws Failure, IOException {
        String name = HostPattern.normalize(hop.host());
        InetAddress literal = Addresses.literal(name);
        List<InetAddress> addresses = literal != null ? List.of(literal) : resolve(name, deadline);
        String from = redirects.isEmpty() ? "" : redirected(redirects) + ", ";
        for (InetAddress address : addresses) {
            String refusal = policy.refusal(address);
            if (refusal != null) {
                throw new Failure("Refused: " + from + (literal != null ? "" : "the host " + name + " resolves to "
                        + addresses.stream().map(Addresses::text).toList() + "; ") + refusal, true);
            }
        }
        return addresses;
    }

    private List<InetAddress> resolve(String name, Deadline deadline) throws Failure, IOException {
        // The system resolver has no time limit of its own: it runs on a thread of its own, waited for only as
        // long as the fetch has left (a lookup that outlives it ends in the background).
        CompletableFuture<InetAddress[]> lookup = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                lookup.complete(resolver.resolve(name));
            } catch (Throwable e) {
                lookup.completeExceptionally(e);
            }
        }, "quiver-fetch-lookup");
        thread.setDaemon(true);
        thread.start();
        try {
            InetAddress[] found = lookup.get(deadline.remainingMillis(), TimeUnit.MILLISECONDS);
            if (found == null || found.length == 0) {
                throw new Failure("Failed to fetch: the host " + name + " has no address", false);
            }
            return List.copyOf(Arrays.asList(found));
        } catch (TimeoutException e) {
            throw new Deadline.TimedOut();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Deadline.Cancelled();
        } catch (ExecutionException e) {
            throw new Failure("Failed to fetch: the host " + name + " is unknown (" + e.getCause().getMessage() + ")",
                    false);
        }
    }

    /**
     * One request on its way: Jetty's request and its response, whose head has arrived. Closing it drops
     * the connection unless the body was read to its end.
     */
    private record Exchange(Request request, Response response, Body body) implements AutoCloseable {
        @Override
        public void close() {
            request.abort(new IOException("the fetch stopped reading"));
            body.close();
        }
    }

    /**
     * The response as Jetty hands it over, its body as an input stream (Jetty reads on only as it is
     * read), the bytes received counted: past a cap the response is aborted ({@link BodyTooLarge}).
     */
    private static final class Body extends InputStreamResponseListener {
        private final long cap;
        private final AtomicLong received = new AtomicLong();

        Body(long cap) {
            this.cap = cap;
        }

        @Override
        public void onContent(Response response, Content.Chunk chunk, Runnable demander) {
            if (received.addAndGet(chunk.remaining()) > cap) {
                response.abort(new BodyTooLarge());
                return;
            }
            super.onContent(response, chunk, demander);
        }

        @Override
        public void close() {
            try {
                super.close();
            } catch (IOException e) {
                // nothing to release that the abort did not
            }
        }
    }

    /** More bytes of a body came than a fetch may read, however they decode. */
    private static final class BodyTooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        BodyTooLarge() {
            super("the body is too large", null);
        }
    }

    /**
     * Sends the hop's GET to the first of the checked addresses that takes the connection, and waits for the
     * response head.
     */
    private Exchange send(Hop hop, List<InetAddress> addresses, Policy policy, Deadline deadline) throws IOException {
        HttpClient http = client();
        String host = HostPattern.normalize(hop.host());
        IOException failed = null;
        for (InetAddress address : addresses) {
            Request request;
            try {
                request = http.newRequest(hop.url())
                        .transport(new PinnedTransport(host, address, hop.port()))
                        .agent(policy.userAgent())
                        .headers(h -> h.put(HttpHeader.ACCEPT, ACCEPT)
                                .put(HttpHeader.ACCEPT_ENCODING, "gzip")
                                .put(HttpHeader.CONNECTION, "close")); // one request per connection
            } catch (IllegalArgumentException e) {
                throw new IOException("the URL cannot be requested (" + e.getMessage() + ")");
            }
            long remaining = deadline.remainingMillis();
            request.timeout(remaining, TimeUnit.MILLISECONDS).idleTimeout(remaining, TimeUnit.MILLISECONDS);
            Body body = new Body(2 * policy.maxBytes() + 65_536);
            try {
                request.send(body);
                return new Exchange(request, head(body, deadline), body);
            } catch (ConnectException | NoRouteToHostException | SocketTimeoutException e) {
                failed = e; // this address did not take the connection: nothing was sent, try the next
            } catch (IOException | RuntimeException e) {
                request.abort(e);
                throw e;
            }
        }
        throw new IOException("could not connect to " + host + " port " + hop.port()
                + (failed == null || failed.getMessage() == null ? "" : " (" + failed.getMessage() + ")"));
    }

    /** Waits for the response head, as long as the fetch has left and the call is not cancelled. */
    private static Response head(Body body, Deadline deadline) throws IOException {
        while (true) {
            try {
                return body.get(Math.min(POLL_MS, deadline.remainingMillis()), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // not yet: look at the deadline and the cancellation again
            } catch (ExecutionException e) {
                throw failure(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Deadline.Cancelled();
            }
        }
    }

    /** What a failure of Jetty's means for the fetch: the deadline, TLS, or an I/O error in words. */
    private static IOException failure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SSLException || t instanceof Deadline.TimedOut || t instanceof Deadline.Cancelled
                    || t instanceof BodyTooLarge) {
                return (IOException) t;
            }
            if (t instanceof TimeoutException) {
                return new Deadline.TimedOut(); // Jetty's total (request) or idle timeout: both are the deadline's
            }
            if (t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException)) {
                return new Deadline.Cancelled();
            }
            if (t instanceof HttpException bad) { // Jetty's parser refused the response (its own message dumps state)
                return new IOException("the server's answer is not valid HTTP/1.1 (" + bad.getReason() + ")", failure);
            }
        }
        if (failure instanceof EOFException || failure instanceof ClosedChannelException) {
            return new IOException("the connection closed before the response was complete", failure);
        }
        if (failure instanceof IOException io && io.getMessage() != null) {
            return io;
        }
        String message = failure == null ? null : failure.getMessage();
        return new IOException(message == null ? String.valueOf(failure) : message, failure);
    }

    private static Fetched read(Exchange exchange, URI url, List<URI> redirects, Policy policy, Deadline deadline)
            throws IOException, Failure {
        long limit = policy.maxBytes();
        HttpFields headers = exchange.response().getHeaders();
        long declared = declaredLength(headers);
        if (declared > limit && !policy.truncate()) {
            throw tooLarge(url, redirects, policy, "the server declared " + declared + " bytes");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(Math.max(declared, 16_384), limit));
        byte[] buffer = new byte[16_384];
        boolean cut = false;
        try {
            InputStream body = decoded(exchange.body().getInputStream(), headers);
            while (true) {
                deadline.remainingMillis(); // throws once the fetch is out of time or cancelled
                int n = body.read(buffer, 0, (int) Math.min(buffer.length, limit + 1 - bytes.size()));
                if (n < 0) {
                    break;
                }
                bytes.write(buffer, 0, n);
                if (bytes.size() > limit) {
                    if (!policy.truncate()) {
                        throw tooLarge(url, redirects, policy, "more than that was sent; reading stopped there");
                    }
                    cut = true;
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            IOException why = failure(e);
            if (!(why instanceof BodyTooLarge)) {
                throw why;
            }
            if (!policy.truncate()) {
                throw tooLarge(url, redirects, policy, "its compressed form alone is larger than " + (2 * limit + 65_536)
                        + " bytes");
            }
            cut = true;
        }
        byte[] data = bytes.toByteArray();
        if (cut && data.length > limit) {
            data = Arrays.copyOf(data, (int) limit);
        }
        return new Fetched(url, List.copyOf(redirects), exchange.response().getStatus(),
                last(headers, HttpHeader.CONTENT_TYPE), data, cut);
    }

    /** The body's length as the server declared it ({@code Content-Length}), or -1. */
    private static long declaredLength(HttpFields headers) {
        try {
            return headers.getLongField(HttpHeader.CONTENT_LENGTH);
        } catch (NumberFormatException e) {
            return -1; // Jetty's parser has refused a Content-Length that frames nothing
        }
    }

    /** The body decoded ({@code gzip}, {@code deflate}) as the server's {@code Content-Encoding} says. */
    private static InputStream decoded(InputStream body, HttpFields headers) throws IOException {
        List<String> codings = headers.getCSV(HttpHeader.CONTENT_ENCODING, false);
        InputStream decoded = body;
        for (int i = codings.size() - 1; i >= 0; i--) {
            String coding = codings.get(i).trim().toLowerCase(Locale.ROOT);
            switch (coding) {
                case "gzip", "x-gzip" -> decoded = new GZIPInputStream(decoded, 8192);
                case "deflate" -> decoded = new InflaterInputStream(decoded);
                case "identity", "" -> { }
                default -> throw new IOException("the body's Content-Encoding " + coding + " is not supported");
            }
        }
        return decoded;
    }

    /** The last value of a header, or {@code null}. */
    private static String last(HttpFields headers, HttpHeader name) {
        List<String> values = headers.getValuesList(name);
        return values.isEmpty() ? null : values.get(values.size() - 1);
    }

    private static Failure tooLarge(URI url, List<URI> redirects, Policy policy, String detail) {
        return new Failure("Refused: the response of " + where(url, redirects) + " is larger than the limit of "
                + policy.maxBytes() + " bytes (maxBytes; " + detail + "). Nothing of it is returned.", true);
    }

    /** The next URL: a redirect's Location resolved against the URL that sent it, without a fragment. */
    private static URI next(URI from, String location, List<URI> redirects) throws Failure {
        try {
            URI base = from.getRawPath() == null || from.getRawPath().isEmpty() ? from.resolve("/") : from;
            URI to = base.resolve(new URI(location.trim()));
            return withoutFragment(to);
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new Failure("Failed to fetch: " + redirected(redirects) + " to '" + location
                    + "', which is not a valid URL", false);
        }
    }

    /** The URL of a request, with the URL the redirects began at. */
    private static String where(URI url, List<URI> redirects) {
        return redirects.isEmpty() ? url.toString() : url + " (redirected from " + redirects.get(0) + ")";
    }

    /** {@code <url> redirected}: the last URL that redirected. */
    private static String redirected(List<URI> redirects) {
        return redirects.get(redirects.size() - 1) + " redirected";
    }

    /**
     * A URL from the model's argument: absolute {@code http} or {@code https}, in its ASCII form, without a
     * fragment.
     */
    static URI parse(String text) throws Failure {
        try {
            URI url = new URI(text.trim());
            if (!url.isAbsolute() || url.isOpaque()) {
                throw new Failure("'" + text + "' is not an absolute URL (e.g. https://example.com/page)", true);
            }
            return withoutFragment(url);
        } catch (URISyntaxException e) {
            throw new Failure("'" + text + "' is not a valid URL: " + e.getReason(), true);
        }
    }

    /** A URL in its ASCII form (non-ASCII characters percent-encoded), without its fragment. */
    private static URI withoutFragment(URI url) throws URISyntaxException {
        String ascii = url.toASCIIString();
        int hash = ascii.indexOf('#');
        return new URI(hash < 0 ? ascii : ascii.substring(0, hash));
    }
}
