package io.quiver.examples.greeting;

import io.quiver.api.schema.Description;
import java.util.Optional;

/**
 * The arguments of {@code greet}. The server generates the tool's input schema from this record
 * (every component is a property; {@code Optional} ones are not required; no other properties are
 * allowed), validates each call against it, and {@code call.arguments(GreetingArgs.class)} converts
 * the JSON arguments into it.
 *
 * @param name who to greet; when absent the tool asks the user
 * @param language the language of the greeting; English when absent
 */
public record GreetingArgs(
        @Description("The name of the person to greet. Leave it out to let the tool ask the user.")
        Optional<String> name,
        @Description("The language of the greeting (default ENGLISH).")
        Optional<Language> language) {

    /** Arguments with a name, in the default language. */
    public static GreetingArgs of(String name) {
        return new GreetingArgs(Optional.of(name), Optional.empty());
    }
}
