package io.quiver.upstream.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@code tools/call} to an upstream server, through every round of input the server asks for
 * before it answers. The server asks in the way of its revision: in a session revision with its own
 * requests ({@code elicitation/create}, {@code sampling/createMessage}, {@code roots/list}) made while
 * the call is in flight, answered on the same connection; in a stateless revision (2026-07-28) with an
 * {@code input_required} result, answered by calling again with a new JSON-RPC id, the same params,
 * {@code inputResponses} for every request it made and its {@code requestState} exactly as given (none
 * when it gave none). Either way the owner sees {@link Step.Asks} with the questions and gives
 * {@link #answer}s; who answers (a user, through the calling client's input path) is the owner's affair.
 *
 * <p>An accepted elicitation's content gets the defaults of the requested schema for the fields it
 * leaves out (SEP-1034), so the server sees what the user was shown.
 */
final class CallExchange {

    /** Rounds of {@code input_required} that ask for nothing (state only) retried at once before giving up. */
    static final int MAX_EMPTY_ROUNDS = 10;

    /** One question of the server's, by the key its answer goes under. */
    record Question(String key, String method, ObjectNode params) {
    }

    /** What the call came to, so far. */
    sealed interface Step {
        /** The call's result (a {@code complete} one). */
        record Done(JsonNode result) implements Step {
        }

        /** The server asks these before it goes on. */
        record Asks(List<Question> questions) implements Step {
        }
    }

    private record Answered(McpClient.Request request, JsonNode result, Throwable failure) {
    }

    private record Asked(JsonNode id, String method, ObjectNode params) {
    }

    private final McpClient client;
    private final ObjectNode params;
    private final Map<String, String> headers;
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    /** A session revision's questions not answered yet, by key; the server request id each answers. */
    private final Map<String, Asked> open = new LinkedHashMap<>();
    /** A stateless revision's questions of the last round, by key. */
    private final Map<String, Question> round = new LinkedHashMap<>();
    private volatile McpClient.Request current;
    private String requestState;
    private int emptyRounds;
    private volatile boolean finished;

    /**
     * @param params the call's params ({@code name}, {@code arguments}, {@code _meta}); each attempt
     *     sends a copy, with the answers of the round before
     * @param headers transport headers of the call (HTTP's {@code Mcp-Param-*})
     */
    CallExchange(McpClient client, ObjectNode params, Map<String, String> headers) {
        this.client = client;
        this.params = params.deepCopy();
        this.headers = Map.copyOf(headers);
    }

    /** Sends the call. */
    CallExchange start() {
        send(params.deepCopy());
        return this;
    }

    /** The progress token of the call, or null. */
    String progressToken() {
        JsonNode token = params.path("_meta").get("progressToken");
        return token == null || token.isNull() ? null : token.asString();
    }

    /** Routes the call's progress notifications to a consumer (the one of the attempt in progress). */
    void onProgress(Consumer<JsonNode> consumer) {
        String token = progressToken();
        if (token != null) {
            client.onProgress(token, consumer);
        }
    }

    private void send(ObjectNode attempt) {
        current = client.request("tools/call", attempt, headers, (id, method, p) -> inbox.add(new Asked(id, method, p)));
        McpClient.Request sent = current;
        sent.answer().whenComplete((result, failure) -> inbox.add(new Answered(sent, result, failure)));
    }

    /**
     * Waits for what comes next: the result, or questions.
     *
     * @return null when nothing came within the time (the owner looks whether the call was cancelled)
     * @throws ExecutionException with {@link McpClient.RpcError} (the server refused the call) or
     *     {@link McpClient.Lost} (the connection ended first)
     */
    Step next(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true) {
            long left = deadline - System.nanoTime();
            Object item = inbox.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (item == null) {
                return null;
            }
            if (item instanceof Asked asked) {
                List<Question> questions = new ArrayList<>();
                questions.add(ask(asked));
                Object more;
                while ((more = inbox.peek()) instanceof Asked) {
                    inbox.poll();
                    questions.add(ask((Asked) more));
                }
                return new Step.Asks(questions);
            }
            Answered answered = (Answered) item;
            if (answered.request() != current) {
                continue; // an earlier round's, or a cancelled one's
            }
            if (answered.failure() != null) {
                finish();
                throw new ExecutionException(answered.failure());
            }
            JsonNode result = answered.result();
            if (client.isStateless() && "input_required".equals(result.path("resultType").asString(""))) {
                round.clear();
                JsonNode requests = result.path("inputRequests");
                for (Map.Entry<String, JsonNode> r : requests.properties()) {
                    JsonNode p = r.getValue().path("params");
                    round.put(r.getKey(), new Question(r.getKey(), r.getValue().path("method").asString(""),
                            p instanceof ObjectNode o ? o.deepCopy() : McpClient.JSON.createObjectNode()));
                }
                JsonNode state = result.get("requestState");
                requestState = state != null && state.isString() ? state.asString() : null;
                if (round.isEmpty()) {
                    if (requestState == null || ++emptyRounds > MAX_EMPTY_ROUNDS) {
                        finish();
                        throw new ExecutionException(new McpClient.RpcError(-32603, "the server answered input_required"
                                + (requestState == null ? " with neither input requests nor request state"
                                        : " with request state alone " + MAX_EMPTY_ROUNDS + " times in a row")));
                    }
                    retry(Map.of());
                    continue;
                }
                emptyRounds = 0;
                return new Step.Asks(List.copyOf(round.values()));
            }
            finish();
            return new Step.Done(result);
        }
    }

    private Question ask(Asked asked) {
        String key = "request-" + (asked.id().isString() ? asked.id().asString() : asked.id().toString());
        open.put(key, asked);
        return new Question(key, asked.method(), asked.params());
    }

    /**
     * Answers questions: each answer is the result of the method asked ({@code ElicitResult},
     * {@code CreateMessageResult}, {@code ListRootsResult}). A stateless revision's round is answered all
     * at once (the call is made again); a session revision's questions each get their response.
     */
    void answer(Map<String, JsonNode> answers) {
        Map<String, JsonNode> results = new LinkedHashMap<>();
        answers.forEach((key, answer) -> results.put(key, withDefaults(question(key), answer)));
        if (!round.isEmpty()) {
            ObjectNode responses = McpClient.JSON.createObjectNode();
            results.forEach(responses::set);
            retry(Map.of("inputResponses", responses));
            return;
        }
        results.forEach((key, result) -> {
            Asked asked = open.remove(key);
            if (asked != null) {
                client.respond(asked.id(), result);
            }
        });
    }

    /** Refuses one of a session revision's questions (one its user cannot be asked). */
    void refuse(String key, int code, String message) {
        Asked asked = open.remove(key);
        if (asked != null) {
            client.respondError(asked.id(), code, message);
        }
    }

    /** Whether the questions are a stateless revision's round (answered all at once, never refused one by one). */
    boolean roundBased() {
        return !round.isEmpty();
    }

    private Question question(String key) {
        Question q = round.get(key);
        if (q == null) {
            Asked asked = open.get(key);
            q = asked == null ? null : new Question(key, asked.method(), asked.params());
        }
        return q;
    }

    private void retry(Map<String, JsonNode> extra) {
        ObjectNode attempt = params.deepCopy();
        extra.forEach(attempt::set);
        if (requestState != null) {
            attempt.put("requestState", requestState);
        }
        round.clear();
        send(attempt);
    }

    /** The call is no longer wanted: cancelled at the server, its open questions refused. */
    void cancel(String reason) {
        McpClient.Request request = current;
        if (request != null && !finished) {
            client.cancel(request, reason);
        }
        for (String key : List.copyOf(open.keySet())) {
            refuse(key, -32800, "the tool call this request belongs to was cancelled: " + reason);
        }
        finish();
    }

    /** Cancels the call unless it reached its end (for an owner that leaves it on an unexpected failure). */
    void cancelIfOpen() {
        if (!finished) {
            cancel("Quiver stopped waiting for it");
        }
    }

    private void finish() {
        finished = true;
        String token = progressToken();
        if (token != null) {
            client.forgetProgress(token);
        }
    }

    /**
     * An answer with the defaults SEP-1034 asks a client to apply: an accepted elicitation's content
     * gets each property's {@code default} from the requested schema where the user gave no value.
     */
    static JsonNode withDefaults(Question question, JsonNode answer) {
        if (question == null || !"elicitation/create".equals(question.method()) || !(answer instanceof ObjectNode given)
                || !"accept".equals(answer.path("action").asString(""))) {
            return answer;
        }
        JsonNode properties = question.params().path("requestedSchema").path("properties");
        if (!properties.isObject()) {
            return answer;
        }
        ObjectNode out = given.deepCopy();
        JsonNode content = out.get("content");
        ObjectNode filled = content instanceof ObjectNode c ? c : out.putObject("content");
        for (Map.Entry<String, JsonNode> p : properties.properties()) {
            JsonNode value = filled.get(p.getKey());
            JsonNode fallback = p.getValue().get("default");
            if ((value == null || value.isNull()) && fallback != null && !fallback.isNull()) {
                filled.set(p.getKey(), fallback.deepCopy());
            }
        }
        return out;
    }
}
