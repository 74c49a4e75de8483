package io.quiver.itests.paxexam.mcp;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.auth.Authentication;
import io.quiver.api.auth.Authenticator;
import io.quiver.api.resource.ResourceEvents;
import java.util.Hashtable;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * Tools the probe registers itself. Kept out of the test classes: JUnit reflects on a test class's
 * methods outside the framework too, where the Quiver API is (deliberately) not on the class path.
 */
public final class ProbeTools {

    private ProbeTools() {
    }

    /** Registers a tool that blocks until it is interrupted, counting the interruptions. */
    public static ServiceRegistration<?> registerBlocking(BundleContext context, String name,
            AtomicInteger interrupted) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "Blocks until interrupted (Pax Exam fixture)");
        Tool blocking = call -> {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
            return Outcome.text("woke up");
        };
        return context.registerService(Tool.class, blocking, props);
    }

    /**
     * Registers a blocking tool whose calls answer "met" once {@code calls} of them run at once, or
     * "alone" after 30 s without.
     */
    public static ServiceRegistration<?> registerRendezvous(BundleContext context, String name, int calls) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "Answers once " + calls + " calls are in (Pax Exam fixture)");
        CountDownLatch together = new CountDownLatch(calls);
        Tool rendezvous = call -> {
            together.countDown();
            return Outcome.text(together.await(30, TimeUnit.SECONDS) ? "met" : "alone");
        };
        return context.registerService(Tool.class, rendezvous, props);
    }

    /** Registers a tool that answers {@code echo: <text>} with the {@code mcp.tool.*} properties. */
    public static ServiceRegistration<?> registerEcho(BundleContext context, String name, String description) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", description);
        Tool echo = call -> Outcome.text("echo: " + call.arguments().get("text"));
        return context.registerService(Tool.class, echo, props);
    }

    /**
     * Registers a non-blocking tool that answers where it ran: {@code lane} when on the thread that
     * read its request from the connection (the HTTP transport's selector lane is on its stack),
     * {@code pool} elsewhere.
     */
    public static ServiceRegistration<?> registerWhere(BundleContext context, String name) {
        return registerWhere(context, name, false);
    }

    /**
     * Registers an authenticator that accepts exactly {@code token} (as subject "itest" of the default
     * tenant) and says whether its checks wait on nothing. While it is registered every request needs a
     * credential.
     */
    public static ServiceRegistration<?> registerAuthenticator(BundleContext context, String token, boolean waitsOnNothing) {
        Authenticator authenticator = new Authenticator() {
            @Override
            public Authentication authenticate(String presented) {
                return presented.equals(token)
                        ? Authentication.accepted(new CallerIdentity("itest", CallerIdentity.DEFAULT_TENANT, Set.of(), true), Set.of())
                        : Authentication.notMine();
            }

            @Override
            public boolean waitsOnNothing() {
                return waitsOnNothing;
            }
        };
        return context.registerService(Authenticator.class, authenticator, new Hashtable<>());
    }

    /**
     * The same, declared blocking or not: "lane" when it runs on the thread that read its request, "call"
     * on a thread of the transport's call pool (what the lane hands over), else "pool".
     */
    public static ServiceRegistration<?> registerWhere(BundleContext context, String name, boolean blocking) {
        return registerStackProbe(context, name, blocking, "Answers which thread it ran on", "pool", null,
                "LaneThread", "run", "lane", "CallPool", "serve", "call");
    }

    /** What served a call, read off its stack: the core lane (its start, or a body's arrival), else the servlet. */
    private static final String[] WHICH = {"CoreLane", "handle", "core", "CoreLane$BodyWait", "arrived", "core",
        "McpServlet", "service", "servlet"};

    /**
     * A tool, declared blocking or not, that answers what served its call: "core" (the HTTP transport's core lane,
     * ahead of the servlet), "servlet", or "elsewhere" (a thread the servlet handed the call to).
     */
    public static ServiceRegistration<?> registerWhich(BundleContext context, String name, boolean blocking) {
        return registerStackProbe(context, name, blocking, "Answers what served its call", "elsewhere", null, WHICH);
    }

    /** The same, non-blocking, counting its calls in {@code ran}. */
    public static ServiceRegistration<?> registerCounting(BundleContext context, String name, AtomicInteger ran) {
        return registerStackProbe(context, name, false, "Counts its calls and answers what served them", "elsewhere",
                ran, WHICH);
    }

    /**
     * A tool that answers the label of the first of {@code marks} (triples: a class's simple name, a method, the
     * label) found on its call's stack, innermost first, else {@code otherwise}; each call counted in {@code ran}
     * (if not null).
     */
    private static ServiceRegistration<?> registerStackProbe(BundleContext context, String name, boolean blocking,
            String description, String otherwise, AtomicInteger ran, String... marks) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", description + " (Pax Exam fixture)");
        props.put("mcp.tool.blocking", blocking);
        Tool probe = call -> {
            if (ran != null) {
                ran.incrementAndGet();
            }
            for (StackTraceElement frame : new Throwable().getStackTrace()) {
                for (int i = 0; i + 2 < marks.length; i += 3) {
                    if (frame.getClassName().endsWith("." + marks[i]) && frame.getMethodName().equals(marks[i + 1])) {
                        return Outcome.text(marks[i + 2]);
                    }
                }
            }
            return Outcome.text(otherwise);
        };
        return context.registerService(Tool.class, probe, props);
    }

    /** Registers a non-blocking tool that reports progress {@code count} times with a message of {@code size} characters, then answers. */
    public static ServiceRegistration<?> registerChatty(BundleContext context, String name, int count, int size) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "Reports progress many times, then answers (Pax Exam fixture)");
        props.put("mcp.tool.blocking", Boolean.FALSE);
        String message = "x".repeat(size);
        Tool chatty = call -> {
            for (int i = 0; i < count; i++) {
                call.context().progress(i, (double) count, message);
            }
            return Outcome.text("said it all");
        };
        return context.registerService(Tool.class, chatty, props);
    }

    /**
     * Registers a non-blocking tool that tells subscribers {@code count} times that {@code uri} changed
     * (through the engine's {@code ResourceEvents}), then answers.
     */
    public static ServiceRegistration<?> registerAnnouncer(BundleContext context, String name, String uri, int count) {
        return registerAnnouncer(context, name, uri, count, false);
    }

    /** The same, declared {@code blocking} or not (a blocking one runs on a call thread). */
    public static ServiceRegistration<?> registerAnnouncer(BundleContext context, String name, String uri, int count,
            boolean blocking) {
        ResourceEvents events = context.getService(context.getServiceReference(ResourceEvents.class));
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "Announces resource updates, then answers (Pax Exam fixture)");
        props.put("mcp.tool.blocking", blocking);
        Tool announcer = call -> {
            for (int i = 0; i < count; i++) {
                events.updated(uri);
            }
            return Outcome.text("announced");
        };
        return context.registerService(Tool.class, announcer, props);
    }
}
