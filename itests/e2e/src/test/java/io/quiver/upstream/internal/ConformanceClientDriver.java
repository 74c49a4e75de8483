package io.quiver.upstream.internal;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Quiver's upstream MCP client under the official conformance suite's client scenarios: the suite
 * starts a mock server, runs {@code java ... ConformanceClientDriver <url>} with the scenario's name in
 * {@code MCP_CONFORMANCE_SCENARIO} (and its data in {@code MCP_CONFORMANCE_CONTEXT}), and judges what
 * the mock saw. The driver does what each scenario expects through the client's own classes, as
 * {@link Upstream} does with a server of {@code mcp-servers.json}: an {@link HttpConnection}, an
 * {@link McpClient}, the revision agreed by {@link Handshake} (it never looks at the version the suite
 * suggests), the tools listed by it, and each call made as a {@link CallExchange} with the
 * {@link McpHeaders} of the tool's schema. Where Quiver would ask the calling user, the driver is that
 * user: it accepts an elicitation without typing anything (so the schema's defaults are what is sent),
 * answers sampling with a fixed text and has no roots.
 */
public final class ConformanceClientDriver {

    private static final long TIMEOUT_MS = 20_000;
    private static final long WATCHDOG_MS = 60_000;

    private final McpClient client;
    private final HttpConnection connection;
    private final Map<String, JsonNode> tools = new LinkedHashMap<>();
    private final Handshake.Deadline deadline = Handshake.Deadline.in(TIMEOUT_MS, "the driver's " + TIMEOUT_MS + " ms");

    private ConformanceClientDriver(String url) {
        ServerSpec spec = new ServerSpec("conformance", ServerSpec.Kind.HTTP, null, List.of(), Map.of(), null, URI.create(url),
                Map.of(), Path.of("conformance-driver"));
        connection = new HttpConnection(spec, Duration.ofSeconds(10), 16 << 20, new StderrTail(100));
        ObjectNode capabilities = McpClient.JSON.createObjectNode();
        capabilities.putObject("elicitation");
        capabilities.putObject("sampling");
        capabilities.putObject("roots");
        client = new McpClient(connection, new McpClient.Events() {
            @Override
            public void notification(String method, JsonNode params) {
                System.err.println("notification " + method);
            }

            @Override
            public void closed(String why, boolean clean) {
                System.err.println("connection ended: " + why);
            }
        }, McpClient.implementation("conformance-driver"), capabilities);
    }

    public static void main(String[] args) throws Exception {
        String scenario = System.getenv().getOrDefault("MCP_CONFORMANCE_SCENARIO", "");
        String context = System.getenv().getOrDefault("MCP_CONFORMANCE_CONTEXT", "{}");
        watchdog();
        ConformanceClientDriver driver = new ConformanceClientDriver(args[args.length - 1]);
        int status = 0;
        try {
            driver.run(scenario, McpClient.JSON.readTree(context));
        } catch (Exception e) {
            e.printStackTrace();
            status = 1;
        } finally {
            driver.connection.close();
        }
        System.exit(status);
    }

    /**
     * Ends the driver if it is still running a minute after it started (every step has a 20 s limit):
     * its threads' stacks go to stderr, which the suite keeps with the scenario's results, so a hang
     * can be read afterwards instead of holding the suite until its own limit.
     */
    private static void watchdog() {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(WATCHDOG_MS);
            } catch (InterruptedException e) {
                return;
            }
            StringBuilder dump = new StringBuilder("driver still running after " + WATCHDOG_MS + " ms; its threads:\n");
            Thread.getAllStackTraces().forEach((thread, stack) -> {
                dump.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
                for (StackTraceElement frame : stack) {
                    dump.append("    at ").append(frame).append('\n');
                }
            });
            System.err.print(dump);
            System.err.flush();
            Runtime.getRuntime().halt(3);
        }, "driver-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private void run(String scenario, JsonNode context) throws Exception {
        connection.open(client);
        Handshake.Agreed agreed = Handshake.open(client, deadline, TIMEOUT_MS, null, () -> {
        });
        System.err.println("agreed on " + agreed.protocolVersion() + (agreed.stateless() ? " (stateless)" : " (session)"));
        for (JsonNode tool : Handshake.listTools(client, deadline, "conformance")) {
            tools.put(tool.path("name").asString(), tool);
        }
        System.err.println("tools: " + tools.keySet());
        switch (scenario) {
            case "tools_call" -> call("add_numbers", args("a", 2, "b", 40));
            case "elicitation-sep1034-client-defaults" -> call("test_client_elicitation_defaults", args());
            case "sse-retry" -> call("test_reconnection", args());
            case "sep-2322-client-request-state" -> requestState();
            case "http-custom-headers" -> {
                for (JsonNode c : context.path("toolCalls")) {
                    call(c.path("name").asString(), (ObjectNode) c.path("arguments"));
                }
            }
            case "http-standard-headers", "http-invalid-tool-headers" -> {
                for (String name : tools.keySet()) {
                    call(name, exampleArguments(tools.get(name).path("inputSchema")));
                }
            }
            case "json-schema-2020-12-preservation" -> {
                // what Quiver lists for the tool, echoed back exactly
                JsonNode schema = ToolProperties.inputSchema(tools.get("json_schema_2020_12_tool").get("inputSchema"));
                ObjectNode arguments = args();
                arguments.set("schema", schema);
                call("json_schema_echo", arguments);
            }
            default -> {
                // initialize, request-metadata, json-schema-ref-no-deref: agreeing and listing is the scenario
            }
        }
    }

    /**
     * The request-state scenario: a call that asks (its state echoed on the retry), an unrelated call
     * made between its rounds, a call that asks without state, and one whose result has no resultType.
     */
    private void requestState() throws Exception {
        CallExchange asking = exchange("test_mrtr_echo_state", args()).start();
        CallExchange.Step first = await(asking);
        call("test_mrtr_unrelated", args());
        finish(asking, first);
        call("test_mrtr_no_state", args());
        call("test_mrtr_no_result_type", args());
    }

    private JsonNode call(String name, ObjectNode arguments) throws Exception {
        CallExchange exchange = exchange(name, arguments).start();
        JsonNode result = finish(exchange, await(exchange));
        System.err.println(name + ": " + result);
        return result;
    }

    private CallExchange exchange(String name, ObjectNode arguments) {
        ObjectNode params = McpClient.JSON.createObjectNode().put("name", name);
        params.set("arguments", arguments);
        JsonNode tool = tools.get(name);
        Map<String, String> headers = client.isStateless() && connection.http() && tool != null
                ? McpHeaders.params(tool.get("inputSchema"), arguments) : Map.of();
        return new CallExchange(client, params, headers);
    }

    private JsonNode finish(CallExchange exchange, CallExchange.Step step) throws Exception {
        while (step instanceof CallExchange.Step.Asks asks) {
            Map<String, JsonNode> answers = new LinkedHashMap<>();
            for (CallExchange.Question q : asks.questions()) {
                answers.put(q.key(), answer(q));
            }
            exchange.answer(answers);
            step = await(exchange);
        }
        return ((CallExchange.Step.Done) step).result();
    }

    private CallExchange.Step await(CallExchange exchange) throws Exception {
        CallExchange.Step step = exchange.next(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        if (step == null) {
            exchange.cancel("the driver gave up waiting");
            throw new IllegalStateException("no answer within " + TIMEOUT_MS + " ms");
        }
        return step;
    }

    /** The driver as the user: accepts forms as they come (their defaults), answers sampling, has no roots. */
    private static JsonNode answer(CallExchange.Question q) {
        ObjectNode answer = McpClient.JSON.createObjectNode();
        switch (q.method()) {
            case "elicitation/create" -> answer.put("action", "accept").putObject("content");
            case "sampling/createMessage" -> {
                answer.put("role", "assistant").put("model", "conformance-driver").put("stopReason", "endTurn");
                answer.putObject("content").put("type", "text").put("text", "an answer");
            }
            default -> answer.putArray("roots");
        }
        return answer;
    }

    /** Arguments a schema accepts: a plain value for each required property. */
    private static ObjectNode exampleArguments(JsonNode schema) {
        ObjectNode out = McpClient.JSON.createObjectNode();
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asString()));
        for (String name : required) {
            switch (schema.path("properties").path(name).path("type").asString("string")) {
                case "integer" -> out.put(name, 1);
                case "number" -> out.put(name, 1.5);
                case "boolean" -> out.put(name, true);
                case "object" -> out.putObject(name);
                case "array" -> out.putArray(name);
                default -> out.put(name, "conformance");
            }
        }
        return out;
    }

    private static ObjectNode args(Object... pairs) {
        ObjectNode out = McpClient.JSON.createObjectNode();
        for (int i = 0; i < pairs.length; i += 2) {
            out.set((String) pairs[i], McpClient.JSON.valueToTree(pairs[i + 1]));
        }
        return out;
    }
}
