package io.quiver.upstream.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How Quiver's client agrees on a revision with an upstream server, and lists its tools: the code the
 * supervisor ({@link Upstream}) and the conformance driver of the tests share.
 *
 * <p>The client speaks the stateless revision 2026-07-28 to a server that offers it, and otherwise the
 * newest session revision both speak. It asks with {@code server/discover} in the stateless revision
 * (as the 2026-07-28 transports describe for clients of both eras): a discover result naming a
 * revision it speaks is a stateless server; an {@code UnsupportedProtocolVersionError} (-32022) names
 * the revisions to pick from (asked again in one of them, or, naming session revisions only, the
 * {@code initialize} handshake in the newest of those); any other error, an HTTP error without a
 * modern JSON-RPC error, or no answer within the probe time, is a session-only server and gets
 * {@code initialize}. A server known from an earlier connection skips the probe.
 */
final class Handshake {

    private static final Logger LOG = LoggerFactory.getLogger(Handshake.class);
    /** Errors only a stateless-era server answers with: it is modern, but refused what was asked. */
    private static final int HEADER_MISMATCH = -32020;
    private static final int MISSING_CAPABILITY = -32021;
    private static final int UNSUPPORTED_VERSION = -32022;

    private Handshake() {
    }

    /** The time a start may take, and how an overrun is described. */
    record Deadline(long nanos, String describe) {
        static Deadline in(long millis, String describe) {
            return new Deadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis), describe);
        }

        long leftMillis() {
            return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos - System.nanoTime()));
        }
    }

    /**
     * What was agreed.
     *
     * @param stateless 2026-07-28 or later: every request carries its own {@code _meta}
     * @param capabilities the server's capabilities
     */
    record Agreed(String protocolVersion, boolean stateless, JsonNode capabilities, JsonNode serverInfo,
            String instructions) {
    }

    /**
     * Agrees on a revision (and, for a session revision, initializes) over a connection already open.
     *
     * @param probeMillis how long {@code server/discover} may go unanswered before the server counts as
     *     one that speaks session revisions only (those may ignore a request before {@code initialize})
     * @param known the era an earlier connection found: true stateless, false session, null unknown
     * @param lateStateless told when a probe that timed out is answered after all, by a stateless server
     */
    static Agreed open(McpClient client, Deadline deadline, long probeMillis, Boolean known, Runnable lateStateless)
            throws Exception {
        String offer = McpClient.SESSION_VERSIONS.get(0);
        McpClient.Request unanswered = null;
        if (!Boolean.FALSE.equals(known)) {
            List<String> tried = new ArrayList<>();
            String asking = McpClient.STATELESS_VERSIONS.get(0);
            while (asking != null) {
                tried.add(asking);
                ObjectNode params = McpClient.JSON.createObjectNode();
                McpClient.statelessMeta(params.putObject("_meta"), asking, client.clientInfo(), client.capabilities());
                McpClient.Request probe = client.request("server/discover", params);
                JsonNode result;
                try {
                    result = probe.answer().get(Math.min(probeMillis, deadline.leftMillis()), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (deadline.leftMillis() <= 1) {
                        client.cancel(probe, "timed out");
                        throw new TimeoutException("no answer to server/discover within " + deadline.describe());
                    }
                    // a session-only server may never answer a request before initialize
                    unanswered = probe;
                    probe.answer().thenAccept(late -> {
                        if (stateless(late) != null) {
                            lateStateless.run();
                        }
                    });
                    asking = null;
                    break;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof McpClient.Lost lost) {
                        throw new IOException(lost.getMessage(), lost);
                    }
                    McpClient.RpcError error = (McpClient.RpcError) e.getCause();
                    if (error.code == UNSUPPORTED_VERSION) {
                        List<String> supported = strings(error.data == null ? null : error.data.get("supported"));
                        String next = newest(McpClient.STATELESS_VERSIONS, supported);
                        if (next != null && tried.size() < 2) {
                            asking = next;
                            continue;
                        }
                        String session = newest(McpClient.SESSION_VERSIONS, supported);
                        if (session == null) {
                            throw new IOException("the server speaks only protocol revisions " + supported
                                    + ", none of which Quiver's client speaks (" + speaks() + ")");
                        }
                        offer = session;
                        break;
                    }
                    if (error.code == HEADER_MISMATCH || error.code == MISSING_CAPABILITY) {
                        throw new IOException("server/discover: the server refused it (" + error.code + ": "
                                + error.getMessage() + ")");
                    }
                    // anything else: a server of the session era
                    break;
                }
                String version = stateless(result);
                if (version != null) {
                    return statelessAgreed(client, version, result);
                }
                List<String> supported = strings(result.get("supportedVersions"));
                if (!supported.isEmpty()) {
                    String session = newest(McpClient.SESSION_VERSIONS, supported);
                    if (session == null) {
                        throw new IOException("the server speaks only protocol revisions " + supported
                                + ", none of which Quiver's client speaks (" + speaks() + ")");
                    }
                    offer = session;
                }
                break;
            }
        }
        try {
            return initialize(client, offer, deadline);
        } catch (IOException refused) {
            // a stateless server slower than the probe answers it after all, before it refuses initialize
            // (it serves the revision it was first asked in): taken as the answer, no restart needed
            JsonNode late = unanswered == null ? null : unanswered.answer().exceptionally(failure -> null).getNow(null);
            String version = stateless(late);
            if (version == null) {
                throw refused;
            }
            LOG.info("server/discover was answered after {} ms, and initialize refused: the server speaks {}", probeMillis,
                    version);
            return statelessAgreed(client, version, late);
        }
    }

    /** The agreement with a server whose discover result offers a stateless revision the client speaks. */
    private static Agreed statelessAgreed(McpClient client, String version, JsonNode result) {
        client.stateless(version);
        client.connection().negotiated(version, true);
        JsonNode meta = result.path("_meta");
        JsonNode info = result.has("serverInfo") ? result.get("serverInfo") : meta.get("io.modelcontextprotocol/serverInfo");
        return new Agreed(version, true, result.path("capabilities"), info,
                result.path("instructions").isString() ? result.get("instructions").asString() : null);
    }

    /** The stateless revision a discover result offers that the client speaks, or null when it is none. */
    private static String stateless(JsonNode result) {
        return result == null ? null : newest(McpClient.STATELESS_VERSIONS, strings(result.get("supportedVersions")));
    }

    private static Agreed initialize(McpClient client, String offer, Deadline deadline) throws Exception {
        ObjectNode params = McpClient.JSON.createObjectNode().put("protocolVersion", offer);
        params.set("capabilities", client.capabilities());
        params.set("clientInfo", client.clientInfo());
        JsonNode init = await(client, client.request("initialize", params), deadline, "initialize");
        String version = init.path("protocolVersion").asString("");
        if (!McpClient.SESSION_VERSIONS.contains(version)) {
            throw new IOException("the server answered initialize with protocol revision '" + version
                    + "', which Quiver's client does not speak (" + speaks() + ")");
        }
        client.session(version);
        client.connection().negotiated(version, false);
        client.notify("notifications/initialized", null);
        client.connection().initialized();
        return new Agreed(version, false, init.path("capabilities"), init.get("serverInfo"),
                init.path("instructions").isString() ? init.get("instructions").asString() : null);
    }

    private static String speaks() {
        List<String> all = new ArrayList<>(McpClient.STATELESS_VERSIONS);
        all.addAll(McpClient.SESSION_VERSIONS);
        return String.join(", ", all);
    }

    /** The first of ours (newest first) that the server lists, or null. */
    private static String newest(List<String> ours, List<String> theirs) {
        for (String v : ours) {
            if (theirs.contains(v)) {
                return v;
            }
        }
        return null;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(v -> {
                if (v.isString()) {
                    out.add(v.asString());
                }
            });
        }
        return out;
    }

    /**
     * Waits for an answer until the deadline: a lost connection says why itself (the process exited,
     * say); a refusal names the request; an overrun cancels the request.
     */
    static JsonNode await(McpClient client, McpClient.Request request, Deadline deadline, String what) throws Exception {
        try {
            return request.answer().get(deadline.leftMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            client.cancel(request, "timed out");
            throw new TimeoutException("no answer to " + what + " within " + deadline.describe());
        } catch (ExecutionException e) {
            throw new IOException(e.getCause() instanceof McpClient.Lost ? e.getCause().getMessage()
                    : what + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Every page of {@code tools/list}. Over Streamable HTTP in a stateless revision, a tool whose
     * {@code x-mcp-header} annotations are not valid is left out (with a warning naming it and why), so
     * one malformed tool does not keep the others from being used.
     */
    static List<JsonNode> listTools(McpClient client, Deadline deadline, String server) throws Exception {
        boolean headers = client.isStateless() && client.connection().http();
        List<JsonNode> tools = new ArrayList<>();
        for (JsonNode tool : list(client, deadline, "tools/list", "tools", Integer.MAX_VALUE)) {
            String invalid = headers ? McpHeaders.invalid(tool.get("inputSchema")) : null;
            if (invalid != null) {
                LOG.warn("Upstream {}: tool {} is left out: {}", server, tool.path("name").asString("?"), invalid);
            } else {
                tools.add(tool);
            }
        }
        return tools;
    }

    /**
     * The pages of a list method ({@code prompts/list}, {@code resources/list}, ...): the objects of its
     * {@code member} array, in order; no page more once more than {@code limit} have come. A page whose member is
     * not an array fails the listing; one without it lists nothing.
     */
    static List<JsonNode> list(McpClient client, Deadline deadline, String method, String member, int limit)
            throws Exception {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 1000; page++) {
            if (items.size() > limit) {
                return items; // enough to fill the limit and to tell that more were left out
            }
            ObjectNode params = McpClient.JSON.createObjectNode();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            JsonNode result = await(client, client.request(method, params), deadline, method);
            JsonNode listed = result.get(member);
            if (!result.isObject() || (listed != null && !listed.isArray())) {
                // a server answering nonsense is failing, not empty: what it listed before stays, or its start fails;
                // one that leaves the member out (a server without tools asked for them) lists nothing
                throw new IOException(method + " answered " + member + " that is not an array");
            }
            for (JsonNode item : result.path(member)) {
                if (item.isObject()) {
                    items.add(item);
                }
            }
            JsonNode next = result.get("nextCursor");
            if (next == null || next.isNull() || next.asString("").isEmpty()) {
                return items;
            }
            cursor = next.asString();
        }
        throw new IOException(method + " gave more than 1000 pages");
    }
}
