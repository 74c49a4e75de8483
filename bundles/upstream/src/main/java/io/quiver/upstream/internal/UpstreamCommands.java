package io.quiver.upstream.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The shell's {@code quiver:upstreams} (Gogo finds it by its {@code osgi.command.*} properties; it
 * needs the {@code shell} feature to be typed): every upstream server, or one with its stderr tail.
 */
@Component(service = UpstreamCommands.class, property = {
    "osgi.command.scope=quiver",
    "osgi.command.function=upstreams"
})
public final class UpstreamCommands {

    @Reference
    Upstreams upstreams;

    /** {@code quiver:upstreams}: a table of the servers. */
    public String upstreams() {
        List<Upstream.Status> all = upstreams.statuses();
        if (all.isEmpty()) {
            return "No upstream servers: declare them in " + upstreams.etc().resolve(ServersFiles.MAIN) + " (mcpServers).";
        }
        StringBuilder out = new StringBuilder(String.format("%-20s %-6s %-12s %-10s %5s %7s %9s %8s  %s%n", "NAME", "KIND",
                "STATE", "PROTOCOL", "TOOLS", "PROMPTS", "RESOURCES", "RESTARTS", "DETAIL"));
        for (Upstream.Status s : all) {
            out.append(String.format("%-20s %-6s %-12s %-10s %5d %7d %9d %8d  %s%n", s.name(), s.kind(),
                    s.state().label(), s.protocol() == null ? "-" : s.protocol(), s.tools(), s.prompts(), s.resources(),
                    s.restarts(),
                    s.lastError() == null ? s.detail() : s.detail() + "; last error: " + s.lastError()));
        }
        return out.toString();
    }

    /** {@code quiver:upstreams NAME}: one server's status and the tail of its stderr. */
    public String upstreams(String name) {
        Upstream u = upstreams.running(name);
        if (u == null) {
            return "No upstream server " + name + ".";
        }
        Upstream.Status s = u.status();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", s.name());
        fields.put("declared in", s.source());
        fields.put("kind", s.kind());
        fields.put("state", s.state().label());
        fields.put("connection", s.detail());
        fields.put("protocol", s.protocol() == null ? "-" : s.protocol());
        fields.put("tools", s.tools());
        fields.put("prompts", s.prompts());
        fields.put("resources", s.resources());
        fields.put("restarts", s.restarts());
        fields.put("last error", s.lastError() == null ? "-" : s.lastError());
        StringBuilder out = new StringBuilder();
        fields.forEach((k, v) -> out.append(String.format("%-12s %s%n", k, v)));
        out.append("stderr (last ").append(s.stderrTail().size()).append(" lines):\n");
        s.stderrTail().forEach(line -> out.append("  ").append(line).append('\n'));
        return out.toString();
    }
}
