package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.json.JsonMapper;

class ServerSpecTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Map<String, String> ENV = Map.of("TOKEN", "s3cret", "HOME", "/home/u");

    private static ServerSpec parse(String name, String json) {
        return ServerSpec.parse(name, JSON.readTree(json), Path.of("/srv"), Path.of("/srv/etc/mcp-servers.json"), ENV::get);
    }

    @Test
    void stdioServerAsClaudeDesktopWritesIt() {
        ServerSpec spec = parse("fs", """
                {"command": "npx", "args": ["-y", "server-filesystem", "${HOME}/docs"], "env": {"API_KEY": "${env:TOKEN}"},
                 "cwd": "work"}""");
        assertEquals(ServerSpec.Kind.STDIO, spec.kind());
        assertEquals("npx", spec.command());
        assertEquals(List.of("-y", "server-filesystem", "/home/u/docs"), spec.args());
        assertEquals(Map.of("API_KEY", "s3cret"), spec.env());
        assertEquals(Path.of("/srv/work"), spec.cwd());
        assertFalse(spec.describe().contains("s3cret"), "the description never shows the environment");
    }

    @Test
    void httpServerWithHeaders() {
        ServerSpec spec = parse("remote", """
                {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}""");
        assertEquals(ServerSpec.Kind.HTTP, spec.kind());
        assertEquals("https://mcp.example.com/mcp", spec.url().toString());
        assertEquals("Bearer s3cret", spec.headers().get("Authorization"));
        assertNull(spec.command());
        assertEquals("https://mcp.example.com/mcp", spec.describe());
    }

    @Test
    void credentialsInTheUrlAreNeverShown() {
        ServerSpec spec = parse("remote", """
                {"type": "http", "url": "https://bot:pa55@mcp.example.com:8443/mcp?key=${env:TOKEN}&x=1"}""");
        assertEquals("https://mcp.example.com:8443/mcp?key=s3cret&x=1", spec.url().toString().replace("bot:pa55@", ""),
                "the request still carries them");
        assertEquals("https://mcp.example.com:8443/mcp?…", spec.shownUrl());
        assertEquals(spec.shownUrl(), spec.describe());
        HttpConnection connection = new HttpConnection(spec, java.time.Duration.ofSeconds(1), 16 << 20, new StderrTail(4));
        assertFalse(connection.detail().contains("s3cret") || connection.detail().contains("pa55"), connection.detail());
    }

    @Test
    void aUrlAloneMeansHttp() {
        assertEquals(ServerSpec.Kind.HTTP, parse("r", "{\"url\": \"http://127.0.0.1:9/mcp\"}").kind());
    }

    @Test
    void aMissingVariableIsNamedButNoValueIsShown() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse("x", "{\"command\": \"run\", \"env\": {\"K\": \"${env:NOT_SET}\"}}"));
        assertTrue(e.getMessage().contains("NOT_SET"), e.getMessage());
        assertEquals("fallback", parse("x", "{\"command\": \"${NOT_SET:-fallback}\"}").command());
    }

    @Test
    void refusals() {
        assertThrows(IllegalArgumentException.class, () -> parse("bad name", "{\"command\": \"x\"}"));
        assertThrows(IllegalArgumentException.class, () -> parse("x", "{}"));
        assertThrows(IllegalArgumentException.class, () -> parse("x", "{\"command\": 3}"));
        assertThrows(IllegalArgumentException.class, () -> parse("x", "{\"command\": \"x\", \"args\": \"-v\"}"));
        assertThrows(IllegalArgumentException.class, () -> parse("x", "{\"type\": \"sse\", \"url\": \"http://h/sse\"}"));
        assertThrows(IllegalArgumentException.class, () -> parse("x", "{\"type\": \"http\", \"url\": \"file:///etc/passwd\"}"));
        assertThrows(IllegalArgumentException.class, () -> parse("x", "{\"type\": \"ws\", \"url\": \"http://h\"}"));
    }

    @Test
    void sameServerIgnoresTheDeclaringFile() {
        ServerSpec a = parse("x", "{\"command\": \"run\", \"args\": [\"1\"]}");
        ServerSpec b = ServerSpec.parse("x", JSON.readTree("{\"command\": \"run\", \"args\": [\"1\"]}"), Path.of("/srv"),
                Path.of("/srv/etc/other.mcp.json"), ENV::get);
        assertTrue(a.sameServer(b));
        assertFalse(a.sameServer(parse("x", "{\"command\": \"run\", \"args\": [\"2\"]}")));
    }

    @Test
    void aPerTenantInstanceHasTheTenantInItsDeclaration() {
        ServerSpec stdio = parse("notes", """
                {"command": "notes-server", "args": ["--root", "/data/{tenant}"], "env": {"DB": "notes_{tenant}"},
                 "cwd": "/srv/{tenant}"}""").forTenant("acme");
        assertEquals("notes@acme", stdio.name());
        assertEquals(List.of("--root", "/data/acme"), stdio.args());
        assertEquals(Map.of("DB", "notes_acme", "QUIVER_TENANT", "acme"), stdio.env());
        assertEquals(Path.of("/srv/acme"), stdio.cwd());
        ServerSpec http = parse("remote", """
                {"url": "https://mcp.example.com/{tenant}/mcp?t={tenant}", "headers": {"X-Tenant": "{tenant}"}}""")
                .forTenant("globex");
        assertEquals("https://mcp.example.com/globex/mcp?t=globex", http.url().toString());
        assertEquals(Map.of("X-Tenant", "globex"), http.headers());
    }

    @Test
    void filesOfAFolder(@TempDir Path etc) throws Exception {
        Files.writeString(etc.resolve("mcp-servers.json"), """
                {"mcpServers": {"a": {"command": "one"}, "b": {"command": 7}}}""");
        Files.writeString(etc.resolve("team.mcp.json"), """
                {"mcpServers": {"a": {"command": "again"}, "c": {"url": "http://127.0.0.1:1/mcp"}}}""");
        Files.writeString(etc.resolve("broken.mcp.json"), "{ not json");
        Files.writeString(etc.resolve("other.json"), "{\"mcpServers\": {\"z\": {\"command\": \"z\"}}}");
        ServersFiles.Read read = ServersFiles.read(etc, ENV::get);
        assertEquals(List.of("a", "c"), List.copyOf(read.servers().keySet()));
        assertEquals("one", read.servers().get("a").command(), "mcp-servers.json comes first");
        List<String> problems = read.problems().stream().map(Object::toString).toList();
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("etc/broken.mcp.json: not valid JSON")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("server b: command must be a string")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("server a is already declared in etc/mcp-servers.json")),
                problems.toString());
        String before = ServersFiles.fingerprint(etc);
        Files.writeString(etc.resolve("team.mcp.json"), "{\"mcpServers\": {}}");
        assertFalse(before.equals(ServersFiles.fingerprint(etc)));
    }
}
