package io.quiver.api.prompt;

import io.quiver.api.RequestContext;
import io.quiver.api.input.InputResponse;
import java.util.Map;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/** A request to render a prompt. */
@ProviderType
public interface PromptRequest {

    /** The prompt's name. */
    String name();

    /** The argument values the client gave. */
    Map<String, String> arguments();

    /** The request context. */
    RequestContext context();

    /** Answers to the input requests of earlier attempts (see {@link io.quiver.api.input.InputNeeded}), by key. */
    default Map<String, InputResponse> answers() {
        return Map.of();
    }

    /** The answer to one input request of an earlier attempt. */
    default Optional<InputResponse> answer(String key) {
        return Optional.ofNullable(answers().get(key));
    }
}
