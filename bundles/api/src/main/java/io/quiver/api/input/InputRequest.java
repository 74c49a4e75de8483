package io.quiver.api.input;

import io.quiver.api.content.Content;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Something a tool needs before it can finish. Each request has a key, unique within the call;
 * the answer comes back under the same key.
 */
public sealed interface InputRequest {

    /** The key the answer will be filed under. */
    String key();

    /**
     * Ask the user to fill in a form.
     *
     * @param requestedSchema a flat JSON Schema object of primitive properties, as JSON values
     * @param sensitive the answer is a secret (a password, a token): a host asks for it masked, and
     *     Quiver keeps it out of its log, progress, audit and the metadata it forwards; it reaches
     *     only the tool that asked (since 1.1)
     */
    record Elicitation(String key, String message, Map<String, Object> requestedSchema, boolean sensitive)
            implements InputRequest {
        public Elicitation {
            requestedSchema = Collections.unmodifiableMap(new LinkedHashMap<>(requestedSchema));
        }

        /** A form whose answer is not secret. */
        public Elicitation(String key, String message, Map<String, Object> requestedSchema) {
            this(key, message, requestedSchema, false);
        }
    }

    /** Ask the client's model for a completion. */
    record Sampling(String key, List<SamplingMessage> messages, int maxTokens, String systemPrompt)
            implements InputRequest {
        public Sampling {
            messages = List.copyOf(messages);
        }
    }

    /** Ask the client for its filesystem roots. */
    record Roots(String key) implements InputRequest {
    }

    /** One message of a sampling conversation ({@code role} is {@code user} or {@code assistant}). */
    record SamplingMessage(String role, Content content) {
    }
}
