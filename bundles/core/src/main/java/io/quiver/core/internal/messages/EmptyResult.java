package io.quiver.core.internal.messages;

/** The empty result ({@code {}}) of {@code ping}, {@code logging/setLevel}, subscriptions and task updates. */
public record EmptyResult() implements Result {

    public static final EmptyResult INSTANCE = new EmptyResult();
}
