package io.quiver.tools.command.internal;

import io.quiver.lib.config.TypedConfig;
import java.lang.reflect.Array;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One command tool as configured and checked: what {@link CommandTool} runs and the service
 * properties it is listed with. {@link #read} says everything that is wrong with a configuration at
 * once; a configuration with a problem registers no tool (a command half-understood is not run).
 *
 * @param defaults the {@code default} of each top-level property of the input schema
 * @param variables the environment variable of each top-level property the input schema declares ({@code
 *     QUIVER_ARG_} and its name in capitals); an argument the schema does not declare gets none
 * @param inheritEnv the globs of Quiver's variables the command gets
 * @param env the variables the configuration sets
 * @param answersOnStdin whether a run gets the answers on stdin ({@code answersVia = stdin}) rather than in
 *     its environment
 */
record CommandSpec(String name, String source, boolean enabled, String title, String description, String inputSchema,
        String outputSchema, ArgvTemplate argv, Set<String> optionArguments, boolean shell, String script,
        String shellPath, Path workingDirectory, List<Pattern> inheritEnv, Map<String, String> env, long timeoutMs,
        long maxOutputBytes, String stderr, boolean outcomeEnvelope, boolean answersOnStdin, boolean readOnlyHint,
        boolean destructiveHint, boolean idempotentHint, boolean openWorldHint, String troubleshootingHint,
        List<String> tenants, List<String> projects, Map<String, Object> defaults, Map<String, String> variables) {

    static final JsonMapper JSON = JsonMapper.builder().build();
    /** The tool names MCP clients accept. */
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /**
     * How much longer than {@link #timeoutMs} the engine waits for an attempt: the command's own limit
     * answers first (stopping its processes, then reading what is left of their output).
     */
    static final long ENGINE_MARGIN_MS = 5_000;

    /**
     * A configuration as read.
     *
     * @param spec the tool, or null when a problem keeps it from running
     * @param problems what is wrong, one line each
     */
    record Read(CommandSpec spec, List<String> problems) {
    }

    /**
     * Reads and checks a configuration.
     *
     * @param properties the configuration's properties
     * @param home the directory a relative working directory is resolved against
     */
    static Read read(Map<String, ?> properties, Path home) {
        TypedConfig.Result<CommandConfig> typed = TypedConfig.read(CommandConfig.class, properties, null);
        CommandConfig c = typed.config();
        List<String> problems = new ArrayList<>();
        typed.problems().forEach(p -> problems.add(p.reason()));
        String source = TypedConfig.source(properties);

        String name = c.name().trim().isEmpty() ? TypedConfig.factoryName(properties, CommandConfig.PID) : c.name().trim();
        if (!TOOL_NAME.matcher(name).matches()) {
            problems.add("the tool name '" + name + "' is not 1 to 128 of A-Z a-z 0-9 _ . - (set name)");
        }

        List<String> argvText = new ArrayList<>();
        List<String> envText = new ArrayList<>();
        try {
            argvText = list(properties.get("argv"));
        } catch (IllegalArgumentException e) {
            problems.add("argv: " + e.getMessage());
        }
        try {
            envText = list(properties.get("env"));
        } catch (IllegalArgumentException e) {
            problems.add("env: " + e.getMessage());
        }

        ArgvTemplate argv = null;
        try {
            argv = ArgvTemplate.parse(argvText, c.shell());
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        String script = c.script();
        if (c.shell()) {
            if (script.isBlank()) {
                problems.add("shell = true needs a script");
            }
            if (c.shellPath().isBlank()) {
                problems.add("shellPath is empty");
            }
        } else {
            if (!script.isBlank()) {
                problems.add("script is set but shell is not true; set shell = true to run it, or remove it");
            }
            if (argvText.isEmpty()) {
                problems.add("argv is missing: the program and its arguments");
            } else if (argv != null && !argv.elements().get(0).literal()) {
                problems.add("argv's first element (the program) must be written out, not a placeholder");
            }
        }

        // the input schema, written or generated from the placeholders
        ObjectNode schema = null;
        if (c.inputSchema().isBlank()) {
            if (argv != null) {
                schema = generated(argv);
            }
        } else {
            JsonNode parsed = null;
            try {
                parsed = JSON.readTree(c.inputSchema());
            } catch (JacksonException e) {
                problems.add("inputSchema is not valid JSON: " + firstLine(e.getOriginalMessage()));
            }
            if (parsed != null) {
                if (parsed instanceof ObjectNode o && "object".equals(o.path("type").asString(""))) {
                    schema = o;
                } else {
                    problems.add("inputSchema must be a JSON object schema with \"type\": \"object\"");
                }
            }
        }
        String output = c.outputSchema().isBlank() ? null : c.outputSchema();
        if (output != null) {
            try {
                JsonNode parsed = JSON.readTree(output);
                if (!parsed.isObject() || !"object".equals(parsed.path("type").asString(""))) {
                    problems.add("outputSchema must be a JSON object schema with \"type\": \"object\"");
                }
            } catch (JacksonException e) {
                problems.add("outputSchema is not valid JSON: " + firstLine(e.getOriginalMessage()));
            }
        }
        Map<String, Object> defaults = new LinkedHashMap<>();
        Map<String, String> variables = new LinkedHashMap<>();
        if (schema != null) {
            Map<String, String> named = new LinkedHashMap<>();
            schema.path("properties").properties().forEach(p -> {
                String variable = variable(p.getKey());
                String other = named.putIfAbsent(variable, p.getKey());
                if (other != null) {
                    problems.add("inputSchema's properties '" + other + "' and '" + p.getKey() + "' would both be $"
                            + variable + ": rename one");
                } else {
                    variables.put(p.getKey(), variable);
                }
            });
        }
        Set<String> optionArguments = new LinkedHashSet<>(TypedConfig.list(c.optionArguments()));
        if (schema != null && argv != null) {
            JsonNode props = schema.path("properties");
            Set<String> required = new LinkedHashSet<>();
            schema.path("required").forEach(r -> required.add(r.asString("")));
            props.properties().forEach(p -> {
                if (p.getValue().has("default")) {
                    defaults.put(p.getKey(), JSON.treeToValue(p.getValue().get("default"), Object.class));
                }
            });
            for (ArgvTemplate.Part.Slot slot : argv.slots()) {
                JsonNode declared = props.get(slot.name());
                if (declared == null) {
                    problems.add("the placeholder {" + slot.name() + "} names no property of inputSchema");
                } else if (slot.spread() && declared.has("type") && !"array".equals(declared.path("type").asString(""))) {
                    problems.add("{" + slot.name() + "*} needs an array property; inputSchema gives it type "
                            + declared.path("type"));
                } else if (!slot.optional() && !slot.spread() && !required.contains(slot.name())
                        && !defaults.containsKey(slot.name())) {
                    problems.add("the placeholder {" + slot.name() + "} needs its argument: list it in inputSchema's"
                            + " required, give it a default, or write {" + slot.name() + "?} to leave the element out");
                }
            }
            for (String allowed : optionArguments) {
                if (!argv.names().contains(allowed)) {
                    problems.add("optionArguments names '" + allowed + "', which no placeholder of argv takes");
                }
            }
            if (c.shell()) {
                for (Map.Entry<String, JsonNode> property : props.properties()) {
                    if (script.contains("{" + property.getKey() + "}")) {
                        problems.add("script contains {" + property.getKey() + "}, but a script is never filled in: use"
                                + " \"$1\" (from argv) or \"$" + variable(property.getKey()) + "\" instead");
                    }
                }
            }
        }

        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : envText) {
            int eq = entry.indexOf('=');
            String key = eq < 0 ? entry : entry.substring(0, eq).trim();
            if (eq < 0 || !VARIABLE.matcher(key).matches()) {
                problems.add("env entry '" + entry + "' is not NAME=value");
            } else {
                env.put(key, entry.substring(eq + 1));
            }
        }
        List<Pattern> inherit = TypedConfig.list(c.inheritEnv()).stream().map(TypedConfig::glob).toList();
        Path workingDirectory = c.workingDirectory().isBlank() ? home : home.resolve(c.workingDirectory().trim()).normalize();

        if (!problems.isEmpty()) {
            return new Read(null, List.copyOf(problems));
        }
        CommandSpec spec = new CommandSpec(name, source, c.enabled(), c.title(), c.description(), JSON.writeValueAsString(schema),
                output, argv, Set.copyOf(optionArguments), c.shell(), script, c.shellPath().trim(), workingDirectory,
                inherit, Map.copyOf(env), c.timeoutMs(), c.maxOutputBytes(), c.stderr(), c.outcomeEnvelope(),
                "stdin".equals(c.answersVia()), c.readOnlyHint(), c.destructiveHint(), c.idempotentHint(),
                c.openWorldHint(), c.troubleshootingHint(), TypedConfig.list(c.tenants()), TypedConfig.list(c.projects()),
                defaults, Map.copyOf(variables));
        return new Read(spec, List.of());
    }

    /** The schema of a configuration without one: each placeholder a string argument (an array for {name*}). */
    static ObjectNode generated(ArgvTemplate argv) {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        ObjectNode props = schema.putObject("properties");
        Set<String> required = new LinkedHashSet<>();
        for (ArgvTemplate.Part.Slot slot : argv.slots()) {
            if (slot.spread()) {
                props.putObject(slot.name()).put("type", "array").putObject("items").put("type", "string");
            } else {
                props.putObject(slot.name()).put("type", "string");
                if (!slot.optional()) {
                    required.add(slot.name());
                }
            }
        }
        if (!required.isEmpty()) {
            ArrayNode list = schema.putArray("required");
            required.forEach(list::add);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /**
     * A list setting as written: in a {@code .cfg} file one text, either a JSON array of strings (for
     * elements with commas or surrounding spaces) or comma-separated (each item trimmed, empty ones
     * dropped); in a {@code .config} file or a feature a typed array or list, element for element.
     */
    static List<String> list(Object raw) {
        if (raw == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (raw.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(raw); i++) {
                out.add(String.valueOf(Array.get(raw, i)));
            }
            return out;
        }
        if (raw instanceof Collection<?> items) {
            items.forEach(i -> out.add(String.valueOf(i)));
            return out;
        }
        String text = String.valueOf(raw).strip();
        if (text.startsWith("[")) {
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (JacksonException e) {
                throw new IllegalArgumentException("starts with '[' but is not a JSON array of strings: "
                        + firstLine(e.getOriginalMessage()));
            }
            if (!node.isArray()) {
                throw new IllegalArgumentException("starts with '[' but is not a JSON array of strings");
            }
            for (JsonNode item : node) {
                if (!item.isString()) {
                    throw new IllegalArgumentException("the JSON array has an item that is not a string: " + item);
                }
                out.add(item.asString());
            }
            return out;
        }
        for (String item : text.split(",")) {
            if (!item.isBlank()) {
                out.add(item.strip());
            }
        }
        return out;
    }

    /** The environment variable an argument is in: {@code QUIVER_ARG_} and its name in capitals. */
    static String variable(String argument) {
        StringBuilder b = new StringBuilder("QUIVER_ARG_");
        for (char ch : argument.toUpperCase(Locale.ROOT).toCharArray()) {
            b.append((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ? ch : '_');
        }
        return b.toString();
    }

    /** How long the engine lets an attempt run: the command's limit and the time to stop it. */
    long engineTimeoutMs() {
        return timeoutMs + ENGINE_MARGIN_MS;
    }

    /** The tool's service properties ({@code mcp.tool.*}). */
    Hashtable<String, Object> serviceProperties() {
        Hashtable<String, Object> p = new Hashtable<>();
        String prefix = "mcp.tool.";
        p.put(prefix + "name", name);
        if (!title.isBlank()) {
            p.put(prefix + "title", title);
        }
        p.put(prefix + "description", description.isBlank() ? "Runs the local command " + programName() + "." : description);
        p.put(prefix + "inputSchema", inputSchema);
        if (outputSchema != null) {
            p.put(prefix + "outputSchema", outputSchema);
        }
        p.put(prefix + "readOnlyHint", readOnlyHint);
        p.put(prefix + "destructiveHint", destructiveHint);
        p.put(prefix + "idempotentHint", idempotentHint);
        p.put(prefix + "openWorldHint", openWorldHint);
        p.put(prefix + "timeoutMs", engineTimeoutMs());
        if (!troubleshootingHint.isBlank()) {
            p.put(prefix + "troubleshootingHint", troubleshootingHint);
        }
        if (!tenants.isEmpty()) {
            p.put("mcp.tenant", tenants.toArray(String[]::new));
        }
        if (!projects.isEmpty()) {
            p.put("mcp.project", projects.toArray(String[]::new));
        }
        p.put("quiver.command", source);
        return p;
    }

    /** The program, for messages: the shell for a script. */
    String programName() {
        if (shell) {
            return shellPath;
        }
        StringBuilder b = new StringBuilder();
        argv.elements().get(0).parts().forEach(part -> b.append(((ArgvTemplate.Part.Literal) part).text()));
        return b.toString();
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }
}
