package io.quiver.examples.greeting;

import io.quiver.api.schema.Description;

/**
 * What {@code greet} returns as structured content; the tool's output schema is generated from it.
 *
 * @param text the greeting
 * @param language the language it is in
 */
@Description("A greeting")
public record Greeting(
        @Description("The greeting, ready to show to the user.") String text,
        @Description("The language of the greeting.") Language language) {
}
