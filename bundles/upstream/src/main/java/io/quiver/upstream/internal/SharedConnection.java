package io.quiver.upstream.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An attachment to an upstream server the host application owns and shares between containers (the
 * launcher's {@code SharedUpstream}): the host's connection, already initialized, reached through a
 * service of the system bundle (the only registrant taken) with JDK types alone:
 *
 * <ul>
 * <li>a {@code Function<Consumer<String>, Consumer<String>>}: this connection's receiver in (the server's
 *     messages for it, JSON text), its sender out (its messages, JSON text), the sender also an
 *     {@code AutoCloseable} whose {@code close} detaches; the function throws {@code UncheckedIOException}
 *     when the host's connection has ended;</li>
 * <li>{@value #NAME} (its name), {@value #INITIALIZE} (the server's {@code initialize} result, JSON text),
 *     {@value #PID} (the process id) as its properties;</li>
 * <li>the end of the host's connection is one last frame that is not JSON-RPC: <code>{"quiver.closed": why}</code>.</li>
 * </ul>
 *
 * <p>The host's side rewrites ids and progress tokens, so this connection's are its own. {@link #close}
 * detaches (the host's side cancels the calls in flight upstream); it never ends the process, which is
 * the host's to stop and to start again.
 */
final class SharedConnection implements Connection {

    static final String NAME = "io.quiver.upstream.shared";
    static final String INITIALIZE = "io.quiver.upstream.initialize";
    static final String PID = "io.quiver.upstream.pid";
    /** The services taken: the host's, registered by the system bundle. */
    static final String FILTER = "(&(objectClass=java.util.function.Function)(" + NAME + "=*)(service.bundleid=0))";
    static final String CLOSED = "quiver.closed";

    private final BundleContext context;
    private final ServerSpec spec;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Consumer<String> sender;
    private volatile ServiceReference<?> reference;
    private volatile String initializeResult;
    private volatile long pid = -1;
    private Listener listener;

    SharedConnection(BundleContext context, ServerSpec spec) {
        this.context = context;
        this.spec = spec;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open(Listener listener) throws IOException {
        this.listener = listener;
        ServiceReference<?> ref = find();
        Object service = ref == null ? null : context.getService(ref);
        if (!(service instanceof Function<?, ?> attach)) {
            throw new IOException("the host no longer shares " + spec.name());
        }
        reference = ref;
        initializeResult = String.valueOf(ref.getProperty(INITIALIZE));
        if (ref.getProperty(PID) instanceof Number n) {
            pid = n.longValue();
        }
        try {
            Object out = ((Function<Consumer<String>, Object>) attach).apply(this::receive);
            if (!(out instanceof Consumer<?> consumer) || !(out instanceof AutoCloseable)) {
                throw new IOException("the host's service for " + spec.name() + " gave no sender that detaches");
            }
            sender = (Consumer<String>) consumer;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (RuntimeException e) {
            throw new IOException("attaching to the host's " + spec.name() + " failed: " + e, e);
        }
    }

    private ServiceReference<?> find() throws IOException {
        try {
            ServiceReference<?>[] refs = context.getServiceReferences(Function.class.getName(),
                    "(&(service.id=" + spec.serviceId() + ")(service.bundleid=0))");
            return refs == null || refs.length == 0 ? null : refs[0];
        } catch (org.osgi.framework.InvalidSyntaxException e) {
            throw new IOException(e);
        }
    }

    /** The host's {@code initialize} result: what the handshake would have agreed on. */
    Handshake.Agreed agreed() throws IOException {
        JsonNode init;
        try {
            init = McpClient.JSON.readTree(initializeResult);
        } catch (JacksonException e) {
            throw new IOException("the host's initialize result for " + spec.name() + " is not JSON: " + e.getOriginalMessage());
        }
        String version = init.path("protocolVersion").asString("");
        if (!McpClient.SESSION_VERSIONS.contains(version)) {
            throw new IOException("the host's connection to " + spec.name() + " agreed on protocol revision '" + version
                    + "', which Quiver's client does not speak");
        }
        return new Handshake.Agreed(version, false, init.path("capabilities"), init.get("serverInfo"),
                init.path("instructions").isString() ? init.get("instructions").asString() : null);
    }

    private void receive(String text) {
        JsonNode message;
        try {
            message = McpClient.JSON.readTree(text);
        } catch (JacksonException e) {
            return;
        }
        if (!(message instanceof ObjectNode object)) {
            return;
        }
        if (object.has(CLOSED)) {
            end("the host's connection ended: " + object.path(CLOSED).asString(""), false);
            return;
        }
        listener.message(object, null);
    }

    @Override
    public void send(ObjectNode message, Map<String, String> headers) throws IOException {
        Consumer<String> out = sender;
        if (out == null || ended.get()) {
            throw new IOException("not attached to the host's " + spec.name());
        }
        try {
            out.accept(McpClient.JSON.writeValueAsString(message));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (RuntimeException e) {
            throw new IOException(e.toString(), e);
        }
    }

    private void end(String why, boolean clean) {
        if (ended.compareAndSet(false, true)) {
            ServiceReference<?> ref = reference;
            if (ref != null) {
                try {
                    context.ungetService(ref);
                } catch (IllegalStateException | IllegalArgumentException e) {
                    // the bundle is stopping
                }
            }
            if (listener != null) {
                listener.closed(why, clean);
            }
        }
    }

    /** Detaches; the host's process goes on. */
    @Override
    public void close() {
        Consumer<String> out = sender;
        if (out instanceof AutoCloseable detach && !ended.get()) {
            try {
                detach.close();
            } catch (Exception e) {
                // the host's side is gone already
            }
        }
        end("detached from the host's connection", true);
    }

    @Override
    public String detail() {
        return pid < 0 ? "shared by the host" : "shared by the host, pid " + pid;
    }
}
