package io.quiver.transport.stdio.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.api.transport.McpEngine;
import io.quiver.lib.config.TypedConfig;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over the process's own stdin and stdout ({@code quiver run --stdio}), for hosts that launch their
 * servers as child processes: newline-delimited JSON-RPC, one message per line, UTF-8.
 *
 * <p>It serves only when the framework property {@value #STDIO_PROPERTY} is {@code true} (the launcher
 * sets it for {@code --stdio}); otherwise it does nothing, so the bundle may sit in any feature set.
 * The streams are the process's real ones, opened from their file descriptors: the launcher points
 * {@code System.out} at stderr in stdio mode, so stray prints and logs never reach the protocol's stdout.
 *
 * <p>The client is the local caller of the default tenant, as over HTTP without authentication:
 * whoever can start this process. When stdin ends the client is done: the engine drains (calls in
 * flight finish and are answered, within its grace period) and the framework stops, so the process
 * exits with status 0.
 *
 * <p>A process has one stdin. This component reads it on one thread from activation on; when it is
 * deactivated while the server goes on (its bundle stopped, the engine replaced), that thread is left
 * blocked in its read and the next line it gets is dropped, since only the framework stopping, or the
 * client closing stdin, ends a stdio connection cleanly.
 */
@Component(configurationPid = StdioConfig.PID, service = ProblemSource.class, immediate = true)
@Designate(ocd = StdioConfig.class)
public final class StdioTransport implements ProblemSource {

    /** The framework property that turns the transport on. */
    public static final String STDIO_PROPERTY = "quiver.stdio";

    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);

    private volatile StdioConfig config;
    private volatile List<Problem> problems = List.of();
    private final StdioConnection connection;
    private final StartGate started;

    @Activate
    public StdioTransport(@Reference McpEngine engine, Map<String, Object> properties, BundleContext context) {
        this.config = read(properties, null);
        if (!Boolean.parseBoolean(context.getProperty(STDIO_PROPERTY))) {
            LOG.debug("{} is not true: not serving MCP over stdio", STDIO_PROPERTY);
            this.connection = null;
            this.started = null;
            return;
        }
        LineReader in = new LineReader(new FileInputStream(FileDescriptor.in), () -> config.maxMessageBytes());
        LineWriter out = new LineWriter(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024));
        this.started = new StartGate(context);
        this.connection = new StdioConnection(engine, in, out, CallerIdentity.ANONYMOUS, () -> config.maxMessageBytes(),
                started::await);
        Thread reader = new Thread(() -> serve(context), "quiver-stdio");
        // never what keeps the JVM alive: an embedding host's main thread decides that
        reader.setDaemon(true);
        reader.start();
        LOG.info("Serving MCP over stdio: one JSON-RPC message per line on stdin and stdout");
    }

    private void serve(BundleContext context) {
        boolean ended;
        try {
            ended = connection.serve();
        } catch (IOException e) {
            LOG.warn("Reading stdin failed ({}): the client is taken to be gone", e.toString());
            ended = true;
        } catch (RuntimeException | Error e) {
            LOG.error("The stdio transport failed; stopping, as the client has lost its server", e);
            ended = true;
        }
        if (!ended) {
            return;
        }
        LOG.info("stdin closed: the client is done; stopping the server");
        connection.end();
        try {
            context.getBundle(Constants.SYSTEM_BUNDLE_ID).stop();
        } catch (BundleException | IllegalStateException e) {
            LOG.warn("Stopping the framework after the end of stdin failed: {}", e.toString());
        }
    }

    @Modified
    void modified(Map<String, Object> properties) {
        config = read(properties, config);
    }

    @Deactivate
    void deactivate() {
        if (connection != null) {
            started.close();
            connection.close();
        }
    }

    @Override
    public List<Problem> problems() {
        return problems;
    }

    /** The configuration to use: the good values given, the last good ones for the rest. */
    private StdioConfig read(Map<String, Object> properties, StdioConfig previous) {
        TypedConfig.Result<StdioConfig> result = TypedConfig.read(StdioConfig.class, properties, previous);
        List<Problem> found = result.problems().stream().map(p -> new Problem(p.source(), p.reason())).toList();
        found.stream().filter(p -> !problems.contains(p)).forEach(p -> LOG.warn("{}", p));
        problems = found;
        return result.config();
    }
}
