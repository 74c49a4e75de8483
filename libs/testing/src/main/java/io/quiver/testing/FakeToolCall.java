package io.quiver.testing;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One attempt of a tool call for unit tests: its arguments (as a map, or as the record the engine would have
 * converted them to), the answers gathered so far, and a {@link FakeRequestContext} that records what the tool
 * reports. A first attempt comes from {@link #of(String, Map)}, {@link #of(Map)} or {@link #typed(Object)}; the
 * {@code with...} methods, {@link #answered} and {@link #escalation()} give changed copies.
 *
 * <pre>{@code
 * FakeToolCall first = FakeToolCall.of("deploy", Map.of("site", "prod"))
 *         .withCapabilities(Map.of("elicitation", Map.of()));
 * Outcome asks = tool.call(first);
 * Outcome done = tool.call(first.answered("branch", new InputResponse.Elicited("accept", Map.of("name", "main"))));
 * }</pre>
 *
 * @param name the tool name as the client called it
 * @param arguments the arguments as JSON values (empty for a {@link #typed(Object)} call)
 * @param typed the arguments as the record {@link #arguments(Class)} returns, or null: the tool reads the map
 * @param answers answers to the input requests of earlier attempts, by request key
 * @param escalated whether this attempt runs after the tool escalated
 * @param context the context the attempt runs in
 */
public record FakeToolCall(String name, Map<String, Object> arguments, Object typed,
        Map<String, InputResponse> answers, boolean escalated, FakeRequestContext context) implements ToolCall {

    /** The tool name of a call made without one. */
    public static final String NAME = "test";

    /** A first attempt of a tool with arguments as JSON values, by an anonymous client that declared nothing. */
    public static FakeToolCall of(String name, Map<String, Object> arguments) {
        return new FakeToolCall(name, arguments, null, Map.of(), false, new FakeRequestContext());
    }

    /** A first attempt of the tool {@value #NAME} with arguments as JSON values. */
    public static FakeToolCall of(Map<String, Object> arguments) {
        return of(NAME, arguments);
    }

    /**
     * A first attempt of the tool {@value #NAME} whose arguments the engine converted to a record:
     * {@link #arguments(Class)} returns it (the map of {@link #arguments()} is empty).
     */
    public static FakeToolCall typed(Object arguments) {
        return new FakeToolCall(NAME, Map.of(), arguments, Map.of(), false, new FakeRequestContext());
    }

    /** The next attempt of this call: the answers so far plus one more, in the same context. */
    public FakeToolCall answered(String key, InputResponse answer) {
        Map<String, InputResponse> all = new LinkedHashMap<>(answers);
        all.put(key, answer);
        return new FakeToolCall(name, arguments, typed, Map.copyOf(all), escalated, context);
    }

    /** The same attempt after the tool escalated: its task (or the call, without one) does the rest. */
    public FakeToolCall escalation() {
        return new FakeToolCall(name, arguments, typed, answers, true, context);
    }

    /** This call from a client that declared these capabilities (in a new context: nothing reported yet). */
    public FakeToolCall withCapabilities(Map<String, Object> capabilities) {
        return new FakeToolCall(name, arguments, typed, answers, escalated, context.withCapabilities(capabilities));
    }

    /** This call by another caller (in a new context: nothing reported yet). */
    public FakeToolCall withCaller(CallerIdentity caller) {
        return new FakeToolCall(name, arguments, typed, answers, escalated, context.withCaller(caller));
    }

    /** This call with a request {@code _meta} for {@code ctx.meta()} to answer (in a new context: nothing reported yet). */
    public FakeToolCall withMeta(Map<String, Object> meta) {
        return new FakeToolCall(name, arguments, typed, answers, escalated, context.withMeta(meta));
    }

    /**
     * The record of a {@link #typed(Object)} call.
     *
     * @throws UnsupportedOperationException when the call has its arguments as a map only (a fake cannot convert)
     * @throws ClassCastException when the record is of another type
     */
    @Override
    public <T> T arguments(Class<T> type) {
        if (typed == null) {
            throw new UnsupportedOperationException("this call has its arguments as a map; make it with"
                    + " FakeToolCall.typed(...) to read them as a " + type.getName());
        }
        return type.cast(typed);
    }
}
