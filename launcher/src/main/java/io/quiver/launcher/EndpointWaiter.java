package io.quiver.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.util.tracker.ServiceTracker;

/**
 * Decides when the MCP endpoint is ready, without sleeping for a guessed time:
 * <ol>
 * <li>a service with the property {@value #PATH_PROPERTY} (the transport's servlet, for example
 * {@code /mcp}) is registered;</li>
 * <li>the HTTP runtime ({@value #RUNTIME}) publishes its {@code osgi.http.endpoint}, which carries
 * the real port (also when 0 asked the OS for one);</li>
 * <li>an MCP {@code server/discover} (stateless revision: no session, no stream) to the endpoint is
 * answered by the MCP servlet: any status but 404, or a JSON-RPC message (Jetty answers its own 404
 * until the whiteboard has registered the servlet).</li>
 * </ol>
 * The wait ends early, without an endpoint, when the framework stops meanwhile: with {@code --stdio}
 * a client may be done, and close stdin, before the HTTP endpoint of the same server answers; and with
 * {@link JettyFailed} when Felix HTTP reports meanwhile that Jetty did not start ({@link JettyFailures}).
 */
final class EndpointWaiter {

    /** The service property a transport's servlet carries: its path below the HTTP runtime's root. */
    static final String PATH_PROPERTY = "quiver.endpoint.path";
    static final String RUNTIME = "org.osgi.service.servlet.runtime.HttpServiceRuntime";
    static final String ENDPOINT_PROPERTY = "osgi.http.endpoint";
    private static final String PROBE_REVISION = "2026-07-28";
    private static final String PROBE_METHOD = "server/discover";
    private static final byte[] PROBE = ("{\"jsonrpc\":\"2.0\",\"id\":\"quiver-start\",\"method\":\"" + PROBE_METHOD
            + "\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + PROBE_REVISION + "\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}").getBytes(StandardCharsets.UTF_8);
    /** How often a wait looks whether the framework is stopping. */
    private static final long POLL_MS = 100;

    private final BundleContext context;
    private final String bind;
    /** Failures of Jetty's start count from here ({@link System#nanoTime()}). */
    private final long since = System.nanoTime();

    EndpointWaiter(BundleContext context, String bind) {
        this.context = context;
        this.bind = bind;
    }

    /** Felix HTTP reported that Jetty did not start: nothing will listen. */
    static final class JettyFailed extends Exception {
        private static final long serialVersionUID = 1L;

        JettyFailed(String why) {
            super(why);
        }
    }

    private void checkJetty() throws JettyFailed {
        JettyFailures.Failure failure = JettyFailures.since(since);
        if (failure != null) {
            throw new JettyFailed(failure.why());
        }
    }

    /** The endpoint once it answers, or {@code null} when the framework stopped before it did. */
    URI await(long timeoutMs) throws TimeoutException, InterruptedException, JettyFailed {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        ServiceReference<?> servlet = awaitService("(" + PATH_PROPERTY + "=*)", deadline,
                "no service with the property " + PATH_PROPERTY + " (the MCP transport's servlet) was registered");
        if (servlet == null) {
            return null;
        }
        String path = String.valueOf(servlet.getProperty(PATH_PROPERTY));
        ServiceTracker<Object, Object> runtimes = tracker("(&(objectClass=" + RUNTIME + ")(" + ENDPOINT_PROPERTY + "=*))");
        try {
            return awaitAnswer(runtimes, path, deadline);
        } catch (IllegalStateException e) {
            return null; // the framework stopped under the tracker
        } finally {
            runtimes.close();
        }
    }

    /** Whether the framework is stopping or stopped (then nothing will answer any more). */
    private boolean frameworkStopping() {
        try {
            return context.getBundle(0).getState() != Bundle.ACTIVE;
        } catch (IllegalStateException e) {
            return true; // the context is no longer valid: the framework stopped
        }
    }

    private ServiceReference<?> awaitService(String filter, long deadline, String failure)
            throws TimeoutException, InterruptedException, JettyFailed {
        ServiceTracker<Object, Object> tracker = tracker(filter);
        try {
            while (tracker.waitForService(Math.max(1, Math.min(POLL_MS, remainingMs(deadline)))) == null) {
                if (frameworkStopping()) {
                    return null;
                }
                checkJetty();
                if (remainingMs(deadline) <= 0) {
                    throw new TimeoutException(failure + " within the start timeout");
                }
            }
            return tracker.getServiceReference();
        } catch (IllegalStateException e) {
            return null; // the framework stopped under the tracker
        } finally {
            tracker.close();
        }
    }

    private ServiceTracker<Object, Object> tracker(String filter) {
        ServiceTracker<Object, Object> tracker;
        try {
            tracker = new ServiceTracker<>(context, context.createFilter(filter), null);
        } catch (InvalidSyntaxException e) {
            throw new IllegalArgumentException(e);
        }
        tracker.open(true);
        return tracker;
    }

    /**
     * The endpoint once it answers; null when the framework stopped first. The runtime's endpoint is read
     * anew before each try: Felix HTTP restarts Jetty when its configuration arrives (an
     * {@code etc/org.apache.felix.http.cfg} read during the start), and the new Jetty may listen elsewhere
     * (another port the OS chose, HTTPS only).
     */
    private URI awaitAnswer(ServiceTracker<Object, Object> runtimes, String path, long deadline)
            throws TimeoutException, InterruptedException, JettyFailed {
        URI url = null;
        String last = "no answer";
        while (true) {
            if (frameworkStopping()) {
                return null;
            }
            checkJetty();
            ServiceReference<?> runtime = runtimes.getServiceReference();
            if (runtime == null && runtimes.waitForService(Math.max(1, Math.min(POLL_MS, remainingMs(deadline)))) != null) {
                runtime = runtimes.getServiceReference();
            }
            if (runtime != null) {
                url = join(chooseEndpoint(endpoints(runtime.getProperty(ENDPOINT_PROPERTY)), bind), path);
                try {
                    URI answered = answeredByMcp(url);
                    if (answered != null) {
                        return answered;
                    }
                    last = "not the MCP servlet's answer (Jetty's own 404, or its 400 over HTTPS)";
                } catch (IOException e) {
                    last = e.toString();
                }
            }
            if (remainingMs(deadline) <= 0) {
                throw new TimeoutException(url == null
                        ? "the HTTP runtime (" + RUNTIME + ") did not publish " + ENDPOINT_PROPERTY + " within the start timeout"
                        : url + " did not answer within the start timeout (last: " + last
                                + "); the transport's servlet is registered but the HTTP whiteboard does not serve it");
            }
            if (runtime != null) {
                Thread.sleep(20);
            }
        }
    }

    /**
     * Whether the MCP servlet answers a {@code server/discover} in the stateless revision: it opens
     * no session and no stream, and being a real request it takes the path a client's first request
     * takes (the codec, the engine, the answer's serialisation) while the bundles still start, rather
     * than when the first client waits for it. Any status counts but Jetty's own 404 (no servlet yet) and
     * 400, unless the body is JSON-RPC (the servlet's own errors are).
     *
     * <p>Over HTTPS the probe takes whatever certificate the endpoint shows: it connects to the address this
     * process has just bound, sends no credential and reads only whether the MCP servlet answers, while the
     * certificate is often one the JVM's trust store does not know (a self-signed one, a private
     * authority's). And it names the certificate's host in {@code Host}: Jetty answers a request for a host
     * the certificate does not name with its own 400 ("Invalid SNI"), and a certificate seldom names the bind
     * address. Clients check the certificate as usual.
     *
     * @return the endpoint to name once the servlet answers (over HTTPS on loopback, {@code localhost} rather than
     *     the address when the certificate holds only the name: {@link OwnCertificate#named}), else null
     */
    static URI answeredByMcp(URI url) throws IOException {
        boolean tls = "https".equalsIgnoreCase(url.getScheme());
        try (Socket socket = tls ? OwnCertificate.SOCKETS.createSocket() : new Socket()) {
            socket.connect(new InetSocketAddress(url.getHost(), url.getPort()), 1000);
            socket.setSoTimeout(2000);
            String host = url.getHost();
            URI endpoint = url;
            if (socket instanceof SSLSocket secure) {
                secure.startHandshake();
                Collection<List<?>> names = OwnCertificate.names(secure.getSession());
                host = OwnCertificate.hostOf(names, host);
                endpoint = OwnCertificate.named(url, names);
            }
            String head = "POST " + url.getRawPath() + " HTTP/1.1\r\n"
                    + "Host: " + host + ":" + url.getPort() + "\r\n"
                    + "Content-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\n"
                    + "MCP-Protocol-Version: " + PROBE_REVISION + "\r\n"
                    + "Mcp-Method: " + PROBE_METHOD + "\r\n"
                    + "Content-Length: " + PROBE.length + "\r\n"
                    + "Connection: close\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(PROBE);
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String statusLine = answer.split("\r\n", 2)[0];
            String[] parts = statusLine.split(" ");
            int status;
            try {
                status = parts.length > 1 && parts[0].startsWith("HTTP/") ? Integer.parseInt(parts[1]) : -1;
            } catch (NumberFormatException e) {
                status = -1;
            }
            if (status < 0) {
                throw new IOException("not an HTTP answer: " + statusLine);
            }
            return status != 404 && status != 400 || answer.contains("\"jsonrpc\"") ? endpoint : null;
        }
    }

    /** The TLS side of the probe: any certificate, and the host it names. */
    static final class OwnCertificate {
        private static final SSLSocketFactory SOCKETS = sockets();

        private OwnCertificate() {
        }

        /**
         * A host name the server's certificate holds (its first DNS name; a wildcard's with a label in front),
         * else {@code fallback}.
         */
        static String hostOf(Collection<List<?>> names, String fallback) {
            for (List<?> name : names) {
                if (name.size() == 2 && Integer.valueOf(2).equals(name.get(0)) && name.get(1) instanceof String dns) {
                    return dns.startsWith("*.") ? "quiver" + dns.substring(1) : dns;
                }
            }
            return fallback;
        }

        /** The certificate's subject alternative names ({@code [type, value]} pairs), or none. */
        static Collection<List<?>> names(SSLSession session) {
            try {
                if (session.getPeerCertificates()[0] instanceof X509Certificate x509 && x509.getSubjectAlternativeNames() != null) {
                    return x509.getSubjectAlternativeNames();
                }
            } catch (GeneralSecurityException | IOException | RuntimeException e) {
                // no names to read
            }
            return List.of();
        }

        /**
         * The endpoint as a client that checks the certificate can use it: on a loopback address the certificate
         * does not hold, but that holds {@code localhost}, the same URL with {@code localhost} (a client using the
         * address would fail the certificate check, and Jetty would answer it with its own 400); else as it is.
         */
        static URI named(URI url, Collection<List<?>> names) {
            String address = url.getHost().startsWith("[") ? url.getHost().substring(1, url.getHost().length() - 1) : url.getHost();
            boolean loopback = address.startsWith("127.") || "::1".equals(address) || "0:0:0:0:0:0:0:1".equals(address);
            if (!loopback) {
                return url;
            }
            boolean holdsAddress = false;
            boolean holdsLocalhost = false;
            for (List<?> name : names) {
                if (name.size() == 2 && name.get(1) instanceof String value) {
                    holdsAddress |= Integer.valueOf(7).equals(name.get(0)) && sameAddress(value, address);
                    holdsLocalhost |= Integer.valueOf(2).equals(name.get(0)) && "localhost".equalsIgnoreCase(value);
                }
            }
            if (holdsAddress || !holdsLocalhost) {
                return url;
            }
            return URI.create(url.getScheme() + "://localhost:" + url.getPort() + url.getRawPath());
        }

        private static boolean sameAddress(String a, String b) {
            if (a.equalsIgnoreCase(b)) {
                return true;
            }
            try {
                // IP literals only (a certificate's IP names are literals): no lookup
                return InetAddress.getByName(a).equals(InetAddress.getByName(b));
            } catch (IOException e) {
                return false;
            }
        }

        private static SSLSocketFactory sockets() {
            X509TrustManager any = new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            };
            try {
                SSLContext tls = SSLContext.getInstance("TLS");
                tls.init(null, new TrustManager[] {any}, null);
                return tls.getSocketFactory();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("no TLS in this JVM", e);
            }
        }
    }

    static List<String> endpoints(Object value) {
        if (value instanceof String s) {
            return List.of(s);
        }
        if (value instanceof String[] a) {
            return Arrays.asList(a);
        }
        if (value instanceof Collection<?> c) {
            return c.stream().map(String::valueOf).toList();
        }
        return List.of();
    }

    /**
     * The base URL to print and poll: the host is the bind address (a wildcard such as 0.0.0.0 when
     * the server listens on every address; brackets around an IPv6 literal), the scheme, port and
     * context path are the runtime's. The runtime's own host is not used: Felix HTTP lists every
     * interface for a wildcard bind and writes IPv6 literals without brackets.
     */
    static URI chooseEndpoint(List<String> endpoints, String bind) throws TimeoutException {
        for (String endpoint : endpoints) {
            int schemeEnd = endpoint.indexOf("://");
            if (schemeEnd < 0) {
                continue;
            }
            int pathStart = endpoint.indexOf('/', schemeEnd + 3);
            String authority = pathStart < 0 ? endpoint.substring(schemeEnd + 3) : endpoint.substring(schemeEnd + 3, pathStart);
            String path = pathStart < 0 ? "/" : endpoint.substring(pathStart);
            int colon = authority.lastIndexOf(':');
            if (colon < 0 || colon == authority.length() - 1 || !authority.substring(colon + 1).chars().allMatch(Character::isDigit)) {
                continue;
            }
            return URI.create(endpoint.substring(0, schemeEnd) + "://" + host(bind) + ":" + authority.substring(colon + 1) + path);
        }
        throw new TimeoutException("the HTTP runtime publishes no endpoint with a port: " + endpoints);
    }

    /** The host of the URL: the address bound, as given (every address stays the wildcard it is). */
    private static String host(String bind) {
        String b = bind.trim();
        if (b.startsWith("[") && b.endsWith("]")) {
            b = b.substring(1, b.length() - 1);
        }
        return b.indexOf(':') >= 0 ? "[" + b + "]" : b;
    }

    /** Appends the servlet path to the runtime's endpoint, with exactly one slash between them. */
    static URI join(URI base, String path) {
        String root = base.toString();
        if (root.endsWith("/")) {
            root = root.substring(0, root.length() - 1);
        }
        return URI.create(root + (path.startsWith("/") ? path : "/" + path));
    }

    private static long remainingMs(long deadline) {
        return (deadline - System.nanoTime()) / 1_000_000L;
    }
}
