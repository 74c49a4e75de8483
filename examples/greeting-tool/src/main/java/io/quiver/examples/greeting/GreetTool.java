package io.quiver.examples.greeting;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Component;

/**
 * {@code greet}: greets a person by name. One Declarative Services component that provides
 * {@link Tool}; {@link McpTool} puts the tool's name, description, schemas and hints on the service
 * as properties, which is all the server reads before the first call.
 *
 * <p>When the caller gives no name, the tool asks the user: it returns {@link Outcome#needsInput}
 * with an elicitation form, the server puts the form to the client, and calls the tool again with
 * the answer in {@link ToolCall#answer(String)}. Nothing waits in between.
 */
@Component(service = Tool.class)
@McpTool(name = "greet",
        title = "Greeting",
        description = "Greets a person by name in English, German, French or Spanish. "
                + "Without a name it asks the user who to greet.",
        arguments = GreetingArgs.class,
        output = Greeting.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class GreetTool implements Tool {

    /** The key of the question for the name; the answer comes back under it. */
    static final String ASK_NAME = "name";

    /** The form the user fills in: a flat object of primitive properties. */
    static final Map<String, Object> NAME_FORM = Map.of(
            "type", "object",
            "properties", Map.of("name", Map.of("type", "string", "title", "Name", "description", "Who to greet")),
            "required", List.of("name"));

    private final Phrasebook phrasebook;

    /** The constructor Declarative Services calls. */
    public GreetTool() {
        this(Phrasebook.load());
    }

    GreetTool(Phrasebook phrasebook) {
        this.phrasebook = phrasebook;
    }

    @Override
    public Outcome call(ToolCall call) {
        GreetingArgs args = call.arguments(GreetingArgs.class);
        Language language = args.language().orElse(Language.ENGLISH);
        Optional<String> name = args.name().filter(n -> !n.isBlank()).or(() -> answeredName(call));
        if (name.isPresent()) {
            return Outcome.done(ToolResult.structured(new Greeting(phrasebook.greet(language, name.get()), language)));
        }
        if (call.answer(ASK_NAME).isPresent()) {
            // asked already: the user declined, cancelled or left the name empty
            return Outcome.text("Nobody to greet: the user gave no name.");
        }
        if (!call.context().client().supports("elicitation")) {
            // an error the model reads and can act on, not an exception
            return Outcome.done(ToolResult.error("Who should be greeted? Call greet again with a name."));
        }
        return Outcome.needsInput(new InputRequest.Elicitation(ASK_NAME, "Who should I greet?", NAME_FORM));
    }

    private static Optional<String> answeredName(ToolCall call) {
        return call.answer(ASK_NAME)
                .filter(InputResponse.Elicited.class::isInstance)
                .map(InputResponse.Elicited.class::cast)
                .filter(InputResponse.Elicited::accepted)
                .map(answer -> answer.content().get("name"))
                .filter(String.class::isInstance)
                .map(String.class::cast)
                .filter(n -> !n.isBlank());
    }
}
