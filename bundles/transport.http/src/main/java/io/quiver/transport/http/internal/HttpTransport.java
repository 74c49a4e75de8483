package io.quiver.transport.http.internal;

import io.quiver.api.transport.McpEngine;
import jakarta.servlet.Servlet;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.servlet.whiteboard.HttpWhiteboardConstants;

/**
 * Streamable HTTP: registers the MCP servlet on the OSGi servlet whiteboard at the configured
 * path (PID {@code io.quiver.transport.http}). Bind address and port are the HTTP service's.
 */
@Component(configurationPid = "io.quiver.transport.http", service = {})
@Designate(ocd = HttpTransport.Config.class)
public final class HttpTransport {

    /** Streamable HTTP settings. */
    @ObjectClassDefinition(name = "Quiver Streamable HTTP transport")
    public @interface Config {
        @AttributeDefinition(description = "Endpoint path")
        String path() default "/mcp";

        @AttributeDefinition(description = "Host names accepted in Host and Origin besides localhost, 127.0.0.1 and [::1]")
        String[] allowedHosts() default {};

        @AttributeDefinition(description = "Origins accepted besides those on allowed hosts (* for any)")
        String[] allowedOrigins() default {};

        @AttributeDefinition(description = "Largest accepted request body in bytes")
        long maxBodyBytes() default 4L << 20;

        @AttributeDefinition(description = "Reconnection delay advertised to SSE clients (ms)")
        int sseRetryMs() default 3000;

        @AttributeDefinition(description = "Events kept per SSE stream for resumption")
        int sseBufferEvents() default 256;

        @AttributeDefinition(description = "Finished SSE streams kept per session for resumption")
        int sseRetainedStreams() default 32;

        @AttributeDefinition(description = "Interval of SSE keep-alive comments (ms)")
        long sseKeepAliveMs() default 20_000;

        @AttributeDefinition(description = "Methods answered with an SSE stream from the start")
        String[] sseMethods() default {"tools/call"};

        @AttributeDefinition(description = "Close request streams still waiting after this long (ms) so the"
                + " client polls with Last-Event-ID; 0 keeps them open")
        long ssePollingMs() default 0;
    }

    /** The service property the launcher reads to find the endpoint. */
    public static final String ENDPOINT_PATH = "quiver.endpoint.path";

    private final ServiceRegistration<Servlet> registration;
    private final McpServlet servlet;
    private final ScheduledExecutorService keepAlive;

    @Activate
    public HttpTransport(@Reference McpEngine engine, Config config, BundleContext context) {
        HttpTransportSettings settings = new HttpTransportSettings(normalize(config.path()),
                list(config.allowedHosts()), list(config.allowedOrigins()), config.maxBodyBytes(),
                config.sseRetryMs(), config.sseBufferEvents(), config.sseRetainedStreams(), config.sseKeepAliveMs(),
                Set.copyOf(list(config.sseMethods())), config.ssePollingMs());
        this.keepAlive = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quiver-sse-timer");
            t.setDaemon(true);
            return t;
        });
        this.servlet = new McpServlet(engine, settings, keepAlive);
        long interval = Math.max(1000, settings.keepAliveMs());
        keepAlive.scheduleWithFixedDelay(servlet::keepAlive, interval, interval, TimeUnit.MILLISECONDS);
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_PATTERN, settings.path());
        props.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_NAME, "quiver-mcp");
        props.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_ASYNC_SUPPORTED, Boolean.TRUE);
        props.put(ENDPOINT_PATH, settings.path());
        this.registration = context.registerService(Servlet.class, servlet, props);
    }

    @Deactivate
    void deactivate() {
        try {
            registration.unregister();
        } catch (IllegalStateException e) {
            // bundle already stopping
        }
        keepAlive.shutdownNow();
        servlet.closeAll();
    }

    /** List settings, each element split on commas (a .cfg file gives one string: "a, b"). */
    static List<String> list(String[] values) {
        return Arrays.stream(values).flatMap(v -> Arrays.stream(v.split(","))).map(String::trim)
                .filter(v -> !v.isEmpty()).toList();
    }

    private static String normalize(String path) {
        String p = path == null || path.isBlank() ? "/mcp" : path.trim();
        return p.startsWith("/") ? p : "/" + p;
    }
}
