package io.quiver.api;

import io.quiver.api.input.InputResponse;
import java.util.Map;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/** One attempt of a tool call: its arguments, the answers gathered so far, and the call context. */
@ProviderType
public interface ToolCall {

    /** The tool name as the client called it. */
    String name();

    /**
     * The arguments as JSON values: {@code Map}, {@code List}, {@code String}, {@code Number},
     * {@code Boolean} or {@code null}.
     */
    Map<String, Object> arguments();

    /** The arguments converted to a type (a record, say) by the engine's JSON mapper. */
    <T> T arguments(Class<T> type);

    /** Answers to the input requests of earlier attempts, by request key. */
    Map<String, InputResponse> answers();

    /** The answer to one input request of an earlier attempt. */
    default Optional<InputResponse> answer(String key) {
        return Optional.ofNullable(answers().get(key));
    }

    /**
     * Whether this attempt runs after the call was handed on ({@link Outcome#escalate()}) or as a task
     * from the start: the time to do the long work, not to ask for more input.
     */
    default boolean escalated() {
        return false;
    }

    /** The context shared by every kind of request. */
    RequestContext context();
}
