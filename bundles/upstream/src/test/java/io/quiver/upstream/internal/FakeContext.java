package io.quiver.upstream.internal;

import java.util.function.BooleanSupplier;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;

/** A request's context as the engine gives it to a proxied tool, prompt, resource or completer: an anonymous caller. */
record FakeContext(String invocationId, ClientInfo client, String protocolVersion, BooleanSupplier cancelled)
        implements RequestContext {

    @Override
    public CallerIdentity caller() {
        return CallerIdentity.ANONYMOUS;
    }

    @Override
    public void progress(double progress, Double total, String message) {
    }

    @Override
    public void log(LogLevel level, String logger, Object data) {
    }

    @Override
    public boolean isCancelled() {
        return cancelled.getAsBoolean();
    }
}
