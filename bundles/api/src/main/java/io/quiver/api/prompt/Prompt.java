package io.quiver.api.prompt;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/** A prompt template. Register it as a service carrying the {@link McpPrompt} properties. */
@ConsumerType
public interface Prompt {

    /** The arguments the prompt takes. */
    default List<PromptArgument> arguments() {
        return List.of();
    }

    /**
     * Renders the prompt; required arguments are present (the engine checks). A prompt that needs
     * the user's input first throws {@link io.quiver.api.input.InputNeeded}.
     */
    PromptResult get(PromptRequest request) throws Exception;
}
