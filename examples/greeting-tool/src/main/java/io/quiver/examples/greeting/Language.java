package io.quiver.examples.greeting;

/**
 * The languages the tool greets in. An enum argument becomes a JSON Schema {@code enum} of the
 * constant names, so the model can only pick one of these.
 */
public enum Language {
    ENGLISH, GERMAN, FRENCH, SPANISH
}
