package io.quiver.upstream.internal;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;

/**
 * One server of an {@code mcpServers} object, as Claude Desktop, Claude Code ({@code .mcp.json}) and
 * Cursor write it: {@code command} / {@code args} / {@code env} / {@code cwd} for a child process
 * spoken to over stdio, or {@code type: "http"} (also {@code "streamable-http"}) / {@code url} /
 * {@code headers} for a remote Streamable HTTP server.
 *
 * <p>{@code ${env:NAME}} (and Claude Code's {@code ${NAME}}, {@code ${NAME:-default}}) in any string
 * value is replaced by the environment variable when the spec is read; a reference to a variable that
 * is not set is an error naming the variable, never its value. Two specs are equal when everything that
 * would start the server the same way is equal, so an edit that changes nothing restarts nothing.
 *
 * <p>A server the host application shares ({@link Kind#SHARED}, see {@link SharedConnection}) is declared by
 * a service, not a file: its {@code command} names that service ({@code service.id=N}), so a new
 * registration (the host started it again) is a new server, and its {@code source} is null.
 *
 * @param name the server's key in {@code mcpServers}
 * @param source the file that declared it
 */
record ServerSpec(String name, Kind kind, String command, List<String> args, Map<String, String> env, Path cwd,
        URI url, Map<String, String> headers, Path source) {

    enum Kind { STDIO, HTTP, SHARED }

    /** Server names: what a tool name prefix may be made of. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    ServerSpec {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        headers = Map.copyOf(headers);
    }

    /**
     * The URL as messages, the log and {@code upstreams_list} show it: without its user information and query, where
     * credentials go ({@code ?key=...}, {@code https://user:token@...}, a {@code ${env:...}} written into either).
     */
    String shownUrl() {
        if (url == null) {
            return null;
        }
        String shown = url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getRawPath() == null ? "" : url.getRawPath());
        return url.getRawQuery() == null ? shown : shown + "?…";
    }

    /** A server the host shares through the service of that id (see {@link SharedConnection}). */
    static ServerSpec shared(String name, long serviceId) {
        return new ServerSpec(name, Kind.SHARED, "service.id=" + serviceId, List.of(), Map.of(), null, null, Map.of(), null);
    }

    /** For a shared server: the id of the host's service; else -1. */
    long serviceId() {
        return kind == Kind.SHARED ? Long.parseLong(command.substring("service.id=".length())) : -1;
    }

    /** Equal when it would start the same way (the declaring file does not count). */
    boolean sameServer(ServerSpec other) {
        return other != null && kind == other.kind && java.util.Objects.equals(command, other.command)
                && args.equals(other.args) && env.equals(other.env) && java.util.Objects.equals(cwd, other.cwd)
                && java.util.Objects.equals(url, other.url) && headers.equals(other.headers);
    }

    /** The placeholder a per-tenant server's declaration may use for the tenant's name. */
    static final String TENANT = "{tenant}";
    /** The placeholder as a URL keeps it (braces are not allowed in a URI). */
    private static final String ENCODED_TENANT = "%7Btenant%7D";

    /**
     * A per-tenant instance: named {@code NAME@TENANT}, {@value #TENANT} replaced by the tenant's name
     * everywhere, and {@code QUIVER_TENANT} in a child's environment.
     */
    ServerSpec forTenant(String tenant) {
        UnaryOperator<String> t = v -> v == null ? null : v.replace(TENANT, tenant);
        List<String> a = args.stream().map(t).toList();
        Map<String, String> e = new LinkedHashMap<>();
        env.forEach((k, v) -> e.put(k, t.apply(v)));
        if (kind == Kind.STDIO) {
            e.put("QUIVER_TENANT", tenant);
        }
        Map<String, String> h = new LinkedHashMap<>();
        headers.forEach((k, v) -> h.put(k, t.apply(v)));
        return new ServerSpec(name + "@" + tenant, kind, t.apply(command), a, e,
                cwd == null ? null : Path.of(t.apply(cwd.toString())), url == null ? null : URI.create(url.toString().replace(ENCODED_TENANT, tenant)),
                h, source);
    }

    /** A one-line description for logs and the shell: never the environment or the headers (secrets). */
    String describe() {
        return switch (kind) {
            case STDIO -> command + (args.isEmpty() ? "" : " " + String.join(" ", args));
            case HTTP -> shownUrl();
            case SHARED -> "shared by the host application (" + command + ")";
        };
    }

    /**
     * Reads one entry.
     *
     * @param base the folder relative {@code cwd} values are resolved against
     * @param environment the environment {@code ${...}} references read
     * @throws IllegalArgumentException naming what is wrong
     */
    static ServerSpec parse(String name, JsonNode entry, Path base, Path source, UnaryOperator<String> environment) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("server name '" + name
                    + "' is not 1 to 64 of A-Z a-z 0-9 _ . - (starting with a letter or digit)");
        }
        if (!entry.isObject()) {
            throw new IllegalArgumentException("server " + name + " is not a JSON object");
        }
        String type = text(entry, "type", name, environment);
        String command = text(entry, "command", name, environment);
        String url = text(entry, "url", name, environment);
        if (type == null) {
            type = command != null ? "stdio" : url != null ? "http" : null;
        }
        if (type == null) {
            throw new IllegalArgumentException("server " + name + " has neither a command nor a url");
        }
        switch (type) {
            case "stdio" -> {
                if (command == null || command.isBlank()) {
                    throw new IllegalArgumentException("server " + name + ": a stdio server needs a command");
                }
                String cwd = text(entry, "cwd", name, environment);
                return new ServerSpec(name, Kind.STDIO, command, strings(entry, "args", name, environment),
                        map(entry, "env", name, environment), cwd == null ? null : base.resolve(cwd).normalize(),
                        null, Map.of(), source);
            }
            case "http", "streamable-http", "streamableHttp" -> {
                if (url == null) {
                    throw new IllegalArgumentException("server " + name + ": an http server needs a url");
                }
                URI uri;
                try {
                    uri = URI.create(url.replace(TENANT, ENCODED_TENANT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("server " + name + ": url is not a URI");
                }
                if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                    throw new IllegalArgumentException("server " + name + ": url must be an http: or https: URL");
                }
                return new ServerSpec(name, Kind.HTTP, null, List.of(), Map.of(), null, uri,
                        map(entry, "headers", name, environment), source);
            }
            case "sse" -> throw new IllegalArgumentException("server " + name
                    + ": the legacy HTTP+SSE transport is not supported; use its Streamable HTTP endpoint (type http)");
            default -> throw new IllegalArgumentException("server " + name + ": unknown type '" + type
                    + "' (stdio or http)");
        }
    }

    private static String text(JsonNode entry, String key, String name, UnaryOperator<String> environment) {
        JsonNode value = entry.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw new IllegalArgumentException("server " + name + ": " + key + " must be a string");
        }
        return expand(value.asString(), name, key, environment);
    }

    private static List<String> strings(JsonNode entry, String key, String name, UnaryOperator<String> environment) {
        JsonNode value = entry.get(key);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw new IllegalArgumentException("server " + name + ": " + key + " must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isString()) {
                throw new IllegalArgumentException("server " + name + ": " + key + " must be an array of strings");
            }
            out.add(expand(item.asString(), name, key, environment));
        }
        return out;
    }

    private static Map<String, String> map(JsonNode entry, String key, String name, UnaryOperator<String> environment) {
        JsonNode value = entry.get(key);
        if (value == null || value.isNull()) {
            return Map.of();
        }
        if (!value.isObject()) {
            throw new IllegalArgumentException("server " + name + ": " + key + " must be an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            if (!e.getValue().isString()) {
                throw new IllegalArgumentException("server " + name + ": " + key + "." + e.getKey() + " must be a string");
            }
            out.put(e.getKey(), expand(e.getValue().asString(), name, key + "." + e.getKey(), environment));
        }
        return out;
    }

    /** Replaces {@code ${env:NAME}}, {@code ${NAME}} and {@code ${NAME:-default}}. */
    static String expand(String value, String server, String key, UnaryOperator<String> environment) {
        Matcher m = REFERENCE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String found = environment.apply(m.group(1));
            if (found == null) {
                if (m.group(2) == null) {
                    throw new IllegalArgumentException("server " + server + ": " + key + " refers to the environment variable "
                            + m.group(1) + ", which is not set");
                }
                found = m.group(2);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(found));
        }
        m.appendTail(out);
        return out.toString();
    }
}
