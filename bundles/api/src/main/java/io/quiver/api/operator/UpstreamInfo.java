package io.quiver.api.operator;

import java.util.List;

/**
 * One upstream MCP server as operators see it (the shell's {@code quiver:upstreams}, the
 * {@code upstreams_list} admin tool). Never its environment or headers, which may hold secrets.
 *
 * @param name its name in {@code mcpServers}
 * @param kind {@code stdio}, {@code http}, or {@code shared} (a server the embedding host application owns)
 * @param state {@code starting}, {@code ready}, {@code backing-off}, {@code failed} or {@code stopped}
 * @param connection the child's process id ({@code pid 1234}) or the URL; {@code -} while not connected
 * @param tools how many of its tools are listed now
 * @param restarts how many times it was started again after a failure
 * @param lastError why it last failed or stopped, or {@code null}
 * @param declaredIn the file that declares it ({@code etc/mcp-servers.json})
 * @param stderrTail the last lines it wrote on stderr (and Quiver's notes about it), oldest first
 * @param protocol the MCP revision agreed with it ({@code 2026-07-28}, {@code 2025-11-25}, ...), or {@code null}
 *        while it is not connected
 * @param prompts how many of its prompts are listed now
 * @param resources how many of its resources and resource templates are listed now
 */
public record UpstreamInfo(String name, String kind, String state, String connection, int tools, long restarts,
        String lastError, String declaredIn, List<String> stderrTail, String protocol, int prompts, int resources) {

    public UpstreamInfo {
        stderrTail = List.copyOf(stderrTail);
    }

    /** As before its prompts and resources were counted: none. */
    public UpstreamInfo(String name, String kind, String state, String connection, int tools, long restarts,
            String lastError, String declaredIn, List<String> stderrTail, String protocol) {
        this(name, kind, state, connection, tools, restarts, lastError, declaredIn, stderrTail, protocol, 0, 0);
    }

    /** As before the revision was shown: without it. */
    public UpstreamInfo(String name, String kind, String state, String connection, int tools, long restarts,
            String lastError, String declaredIn, List<String> stderrTail) {
        this(name, kind, state, connection, tools, restarts, lastError, declaredIn, stderrTail, null, 0, 0);
    }
}
