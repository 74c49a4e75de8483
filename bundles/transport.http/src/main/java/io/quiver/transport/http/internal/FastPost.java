package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.Receipt;
import java.util.Map;

/**
 * An MCP POST as the core lane ({@link CoreLane}) holds it, before and instead of the servlet: what
 * {@link McpServlet#fastCaller} and {@link McpServlet#fastServe} read of it and how they answer it.
 * Container-neutral, so that the rules stay in the servlet's class.
 */
interface FastPost {

    /** A request header's value, or null. */
    String header(String name);

    /** Every header by lower-case name (first value of each). */
    Map<String, String> headers();

    String remoteAddr();

    /** The request's scheme ({@code http}, {@code https}). */
    String scheme();

    /** Its {@code Host} header, else the server's name and port. */
    String authority();

    /**
     * Watches the request's connection until the request completes: a client that closes it meanwhile runs
     * {@code gone} ({@link CloseWatcher}). Call it once the body is read, before anything can complete the
     * request; where connections are not watched it does nothing.
     */
    void watchClose(Runnable gone);

    /**
     * Answers and ends the request without blocking: {@code body} null for none; {@code headers} go out with it
     * ({@code Mcp-Session-Id}, {@code Retry-After}, {@code Connection}); {@code written} (if any) runs once the
     * bytes are out or lost.
     */
    void answer(int status, Map<String, String> headers, String contentType, byte[] body, Runnable written);

    /**
     * Gives the request to the servlet, which goes on from where this left it ({@link Handover}); nothing has
     * been written.
     */
    void handOver(Handover handover);

    /**
     * What the core lane did before it gave the request to the servlet: the body is read, the caller admitted,
     * and the engine either asked for a thread that may wait ({@code receipt} null: nothing happened in the
     * engine yet) or answered with a receipt the servlet serves (a streamed answer, a blocking tool's call).
     */
    record Handover(byte[] body, CallerIdentity caller, Receipt receipt) {
        /** The request attribute that carries it. */
        static final String ATTRIBUTE = "io.quiver.transport.http.handover";
    }
}
