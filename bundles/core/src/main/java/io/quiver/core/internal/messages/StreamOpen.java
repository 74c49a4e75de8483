package io.quiver.core.internal.messages;

/**
 * What a handler returns when its answer is a stream that stays open ({@code subscriptions/listen}):
 * nothing is sent now; the stream ends later with its own last message.
 */
public record StreamOpen() implements Result {

    public static final StreamOpen INSTANCE = new StreamOpen();
}
