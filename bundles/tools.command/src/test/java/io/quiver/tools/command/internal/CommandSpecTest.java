package io.quiver.tools.command.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CommandSpecTest {

    private static final Path HOME = Path.of("/srv/quiver");

    private static CommandSpec.Read read(Object... keyValues) {
        Map<String, Object> p = new HashMap<>();
        p.put("felix.fileinstall.filename", "file:/srv/quiver/etc/io.quiver.tools.command-git_log.cfg");
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put((String) keyValues[i], keyValues[i + 1]);
        }
        return CommandSpec.read(p, HOME);
    }

    private static CommandSpec ok(Object... keyValues) {
        CommandSpec.Read read = read(keyValues);
        assertEquals(List.of(), read.problems());
        return read.spec();
    }

    private static String problems(Object... keyValues) {
        CommandSpec.Read read = read(keyValues);
        assertNull(read.spec(), "a configuration with a problem registers nothing");
        assertFalse(read.problems().isEmpty());
        return String.join("\n", read.problems());
    }

    @Test
    void aCfgFileAsUsersWriteIt() throws Exception {
        CommandSpec spec = ok("argv", "git, log, -n, {count}, --, {path}", "description", "Shows the log",
                "inputSchema", "{\"type\": \"object\", \"properties\": {\"count\": {\"type\": \"integer\", \"default\": 10},"
                        + " \"path\": {\"type\": \"string\"}}, \"required\": [\"path\"]}",
                "timeoutMs", "5000", "readOnlyHint", "true", "workingDirectory", "repo", "env", "GIT_PAGER=cat, A=b=c",
                "tenants", "acme");
        assertEquals("git_log", spec.name(), "the NAME of the file");
        assertEquals(List.of("git", "log", "-n", "10", "--", "x"),
                spec.argv().fill(Map.of("path", "x"), spec.defaults(), spec.optionArguments()));
        assertEquals(HOME.resolve("repo"), spec.workingDirectory());
        assertEquals(Map.of("GIT_PAGER", "cat", "A", "b=c"), spec.env());
        Hashtable<String, Object> p = spec.serviceProperties();
        assertEquals("git_log", p.get("mcp.tool.name"));
        assertEquals("Shows the log", p.get("mcp.tool.description"));
        assertEquals(true, p.get("mcp.tool.readOnlyHint"));
        assertEquals(true, p.get("mcp.tool.destructiveHint"));
        assertEquals(5000L + CommandSpec.ENGINE_MARGIN_MS, p.get("mcp.tool.timeoutMs"),
                "the engine lets the command's own limit answer first");
        assertTrue(((String) p.get("mcp.tool.inputSchema")).contains("\"count\""));
        assertEquals(List.of("acme"), List.of((String[]) p.get("mcp.tenant")));
        assertFalse(p.containsKey("mcp.tool.title"));
    }

    @Test
    void listsWithCommasAsJsonArraysOrTypedValues() {
        CommandSpec json = ok("argv", "[\"git\", \"log\", \"--format=%h, %s\", \" padded \"]");
        assertEquals(4, json.argv().elements().size());
        assertEquals(List.of("git", "log", "--format=%h, %s", " padded "), CommandSpec.list(
                "[\"git\", \"log\", \"--format=%h, %s\", \" padded \"]"));
        assertEquals(List.of("--format=%h,%s"), CommandSpec.list(new String[] {"--format=%h,%s"}),
                "a typed array (.config) is taken element for element");
        assertEquals(List.of("a", "b"), CommandSpec.list(" a ,, b "));
    }

    @Test
    void withoutASchemaEachPlaceholderIsAStringArgument() {
        CommandSpec spec = ok("argv", "grep, -rn, --, {pattern}, {dirs*}, {extra?}");
        assertEquals("{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},\"dirs\":{\"type\":\"array\","
                + "\"items\":{\"type\":\"string\"}},\"extra\":{\"type\":\"string\"}},\"required\":[\"pattern\"],"
                + "\"additionalProperties\":false}", spec.inputSchema());
    }

    @Test
    void aShellScriptTakesItsArgumentsAsParameters() {
        CommandSpec spec = ok("shell", "true", "script", "grep -rn -- \"$1\" \"${QUIVER_ARG_DIR:-.}\"", "argv",
                "{pattern}", "optionArguments", "pattern");
        assertTrue(spec.shell());
        assertEquals(Set.of("pattern"), spec.optionArguments());
        assertEquals("/bin/sh", spec.programName());
        assertEquals("QUIVER_ARG_MY_DIR_2", CommandSpec.variable("my-dir.2"));
    }

    @Test
    void everyProblemIsSaidAtOnce() {
        String all = problems("name", "bad name!", "argv", "{prog}, {missing}, {opt}", "inputSchema",
                "{\"type\": \"object\", \"properties\": {\"prog\": {}, \"opt\": {}}}", "timeoutMs", "soon",
                "env", "NOEQUALS", "optionArguments", "nobody");
        assertTrue(all.contains("tool name 'bad name!'"), all);
        assertTrue(all.contains("the program"), all);
        assertTrue(all.contains("{missing} names no property"), all);
        assertTrue(all.contains("{opt} needs its argument"), all);
        assertTrue(all.contains("timeoutMs = soon"), all);
        assertTrue(all.contains("env entry 'NOEQUALS'"), all);
        assertTrue(all.contains("optionArguments names 'nobody'"), all);
        assertTrue(problems().contains("argv is missing"));
        assertTrue(problems("argv", "p", "inputSchema", "{\"type\": ").contains("inputSchema is not valid JSON"));
        assertTrue(problems("argv", "p", "inputSchema", "[]").contains("\"type\": \"object\""));
        assertTrue(problems("argv", "p, {x*}", "inputSchema", "{\"type\": \"object\", \"properties\": {\"x\":"
                + " {\"type\": \"string\"}}}").contains("needs an array"));
        assertTrue(problems("argv", "awk, {print $1}").contains("write {{ for a literal brace"));
        assertTrue(problems("argv", "p", "script", "echo").contains("shell is not true"));
        assertTrue(problems("shell", "true").contains("needs a script"));
        assertTrue(problems("shell", "true", "script", "ls {dir}", "argv", "{dir}").contains("never filled in"));
        assertTrue(problems("argv", "p", "stderr", "loud").contains("one of progress, log, both, none"));
        assertTrue(problems("argv", "p", "answersVia", "file").contains("one of env, stdin"));
        assertTrue(problems("argv", "p", "inputSchema", "{\"type\": \"object\", \"properties\": {\"my-dir\": {},"
                + " \"My_Dir\": {}}}").contains("'my-dir' and 'My_Dir' would both be $QUIVER_ARG_MY_DIR"));
    }

    @Test
    void answersGoToTheEnvironmentUnlessStdinIsConfigured() {
        assertFalse(ok("argv", "p").answersOnStdin());
        assertFalse(ok("argv", "p", "answersVia", "env").answersOnStdin());
        assertTrue(ok("argv", "p", "answersVia", "stdin").answersOnStdin());
    }

    @Test
    void aDisabledToolIsReadButNotOffered() {
        CommandSpec spec = ok("argv", "true", "enabled", "false");
        assertNotNull(spec);
        assertFalse(spec.enabled());
    }
}
