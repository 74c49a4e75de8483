package io.quiver.launcher;

/**
 * The embedding application's say over every tool call, whoever the caller (its own MCP client, Claude
 * Code, any other): a private channel no MCP client can reach. Give it to {@link Quiver.Builder#host};
 * the container then sends it a {@link HostRequest} whenever a call needs the host: to admit it (approve,
 * edit its arguments, deny), to release it once prepared, to answer a tool's question, to review its
 * result (deliver, replace, withhold) and to record what is delivered. The call waits for the reply,
 * which the host gives through the request, now or later, from any thread; meanwhile the container
 * serves everything else. A host that does not reply within {@code hostTimeoutMs} (5 min by default,
 * in {@code etc/io.quiver.core.cfg}) ends the call with an error.
 *
 * <p>Plain Java: requests carry JSON values as {@code String}, {@code Number}, {@code Boolean},
 * {@code List}, {@code Map} and {@code null}, never OSGi or Quiver API types.
 */
@FunctionalInterface
public interface Host {

    /**
     * A request from the container. Called on the calling thread of the tool call: reply at once or hand
     * the request to a thread of your own (a user deciding) and return. A request of kind
     * {@link HostRequest.Kind#OVER} needs no reply: the call is over.
     */
    void handle(HostRequest request);
}
