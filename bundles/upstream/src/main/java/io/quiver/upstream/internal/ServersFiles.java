package io.quiver.upstream.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.quiver.api.operator.Problem;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code mcpServers} files of {@code etc/}: {@code mcp-servers.json} and every {@code *.mcp.json}.
 * Each is read whole; a file that is not valid JSON, or has no {@code mcpServers} object, contributes
 * nothing and is a problem, and so is each entry that is not valid (the file's other entries still
 * count). A name declared by two files is taken from the first in name order and the second is a problem.
 */
final class ServersFiles {

    static final String MAIN = "mcp-servers.json";
    static final String SUFFIX = ".mcp.json";

    private static final JsonMapper JSON = McpClient.JSON;

    /** What the folder declares. */
    record Read(Map<String, ServerSpec> servers, List<Problem> problems) {
    }

    /** A cheap fingerprint of the files (names, sizes, times): unchanged means nothing to read. */
    static String fingerprint(Path etc) {
        StringBuilder out = new StringBuilder();
        for (Path file : files(etc)) {
            try {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
                out.append(file.getFileName()).append(':').append(a.size()).append(':')
                        .append(a.lastModifiedTime().toMillis()).append(';');
            } catch (IOException e) {
                out.append(file.getFileName()).append(":gone;");
            }
        }
        return out.toString();
    }

    static Read read(Path etc, UnaryOperator<String> environment) {
        Map<String, ServerSpec> servers = new LinkedHashMap<>();
        List<Problem> problems = new ArrayList<>();
        for (Path file : files(etc)) {
            String subject = "etc/" + file.getFileName();
            JsonNode root;
            try {
                root = JSON.readTree(Files.readString(file));
            } catch (NoSuchFileException e) {
                continue;
            } catch (IOException | JacksonException e) {
                problems.add(new Problem(subject, "not valid JSON: " + firstLine(e.getMessage())
                        + "; none of its servers run"));
                continue;
            }
            JsonNode declared = root == null ? null : root.get("mcpServers");
            if (declared == null || !declared.isObject()) {
                problems.add(new Problem(subject, "has no \"mcpServers\" object; none of its servers run"));
                continue;
            }
            for (Map.Entry<String, JsonNode> entry : declared.properties()) {
                String name = entry.getKey();
                ServerSpec spec;
                try {
                    spec = ServerSpec.parse(name, entry.getValue(), etc.getParent() == null ? etc : etc.getParent(), file,
                            environment);
                } catch (IllegalArgumentException e) {
                    problems.add(new Problem(subject, e.getMessage() + "; it does not run"));
                    continue;
                }
                ServerSpec earlier = servers.get(name);
                if (earlier != null) {
                    problems.add(new Problem(subject, "server " + name + " is already declared in etc/"
                            + earlier.source().getFileName() + "; this one is ignored"));
                    continue;
                }
                servers.put(name, spec);
            }
        }
        return new Read(servers, problems);
    }

    /** {@code mcp-servers.json} first, then the {@code *.mcp.json} files in name order. */
    static List<Path> files(Path etc) {
        TreeMap<String, Path> others = new TreeMap<>();
        Path main = null;
        try (Stream<Path> list = Files.list(etc)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                String n = p.getFileName().toString();
                if (n.equals(MAIN)) {
                    main = p;
                } else if (n.endsWith(SUFFIX) && !n.startsWith(".")) {
                    others.put(n, p);
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        List<Path> out = new ArrayList<>();
        if (main != null) {
            out.add(main);
        }
        out.addAll(others.values());
        return out;
    }

    private static String firstLine(String message) {
        String m = Objects.requireNonNullElse(message, "unreadable");
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private ServersFiles() {
    }
}
