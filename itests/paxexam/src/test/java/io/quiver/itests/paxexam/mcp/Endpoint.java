package io.quiver.itests.paxexam.mcp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Filter;
import org.osgi.framework.ServiceReference;
import org.osgi.util.tracker.ServiceTracker;

/**
 * Finds the MCP endpoint once it is really served: the transport's servlet service (property
 * {@code quiver.endpoint.path}) is registered, the HTTP runtime publishes its address in
 * {@code osgi.http.endpoint}, and a request to the path reaches the servlet (Jetty answers 404
 * until the whiteboard has installed it). Bounded waits only.
 */
public final class Endpoint {

    public static final String PATH_PROPERTY = "quiver.endpoint.path";
    private static final String SERVLET_FILTER = "(&(objectClass=jakarta.servlet.Servlet)(" + PATH_PROPERTY + "=*))";
    private static final String RUNTIME_FILTER = "(objectClass=org.osgi.service.servlet.runtime.HttpServiceRuntime)";

    private Endpoint() {
    }

    /** The endpoint URI, e.g. {@code http://127.0.0.1:39811/mcp}. */
    public static URI await(BundleContext context, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        ServiceReference<?> servlet = awaitReference(context, SERVLET_FILTER, deadline);
        ServiceReference<?> runtime = awaitReference(context, RUNTIME_FILTER, deadline);
        String path = String.valueOf(servlet.getProperty(PATH_PROPERTY));
        URI base = httpEndpoint(runtime.getProperty("osgi.http.endpoint"));
        URI endpoint = URI.create(base.getScheme() + "://" + base.getRawAuthority() + path);
        awaitServed(endpoint, deadline);
        return endpoint;
    }

    private static ServiceReference<?> awaitReference(BundleContext context, String filter, long deadline)
            throws Exception {
        Filter f = context.createFilter(filter);
        ServiceTracker<Object, Object> tracker = new ServiceTracker<>(context, f, null);
        tracker.open(true);
        try {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            tracker.waitForService(left);
            ServiceReference<Object> reference = tracker.getServiceReference();
            if (reference == null) {
                throw new AssertionError("No service " + filter + " within the timeout");
            }
            return reference;
        } finally {
            tracker.close();
        }
    }

    private static URI httpEndpoint(Object property) {
        String[] values = property instanceof String[] array ? array
                : property instanceof String s ? new String[] {s} : new String[0];
        for (String value : values) {
            if (value.startsWith("http://")) {
                return URI.create(value);
            }
        }
        throw new AssertionError("HttpServiceRuntime publishes no http endpoint: osgi.http.endpoint=" + property);
    }

    /** Polls the path until the servlet answers (400 for a GET without a session) instead of Jetty's 404. */
    private static void awaitServed(URI endpoint, long deadline) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        int last = -1;
        while (System.nanoTime() < deadline) {
            HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(2))
                    .header("Accept", "text/event-stream").GET().build();
            try {
                last = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (last != 404 && last != 503) {
                    return;
                }
            } catch (IOException e) {
                last = -1; // not listening yet
            }
            Thread.sleep(25);
        }
        throw new AssertionError(endpoint + " is not served (last HTTP status " + last + ")");
    }
}
