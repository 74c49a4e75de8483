package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Supplier;

/**
 * A request's {@link AsyncContext} that says the same thing whenever the request is over. The transport
 * answers on other threads than the one that read the request, and the client may leave meanwhile (a
 * 2026-07-28 client cancels by closing its connection): Jetty then completes and recycles the request
 * on its own thread. Touched after that, Jetty's context throws {@link IllegalStateException}, which the
 * transport takes for "the client left"; touched while Jetty is in the middle of it, it throws a
 * {@link NullPointerException} from inside Jetty (its async event is gone before its state is), which
 * escaped as an error and killed the answering thread. Here both are the {@code IllegalStateException}.
 */
final class GuardedAsync implements AsyncContext {

    private final AsyncContext jetty;

    private GuardedAsync(AsyncContext jetty) {
        this.jetty = jetty;
    }

    /** Starts the request's asynchronous cycle (see {@link ServletRequest#startAsync()}). */
    static AsyncContext start(HttpServletRequest req) {
        return guard(req.startAsync());
    }

    /** {@code async}, guarded (once). */
    static AsyncContext guard(AsyncContext async) {
        return async instanceof GuardedAsync || async == null ? async : new GuardedAsync(async);
    }

    private static <T> T over(Supplier<T> call) {
        try {
            return call.get();
        } catch (NullPointerException e) {
            throw new IllegalStateException("The request is over: the client left", e);
        }
    }

    private static void over(Runnable call) {
        over(() -> {
            call.run();
            return null;
        });
    }

    @Override
    public ServletRequest getRequest() {
        return over(jetty::getRequest);
    }

    @Override
    public ServletResponse getResponse() {
        return over(jetty::getResponse);
    }

    @Override
    public boolean hasOriginalRequestAndResponse() {
        return over(jetty::hasOriginalRequestAndResponse);
    }

    @Override
    public void dispatch() {
        over(() -> jetty.dispatch());
    }

    @Override
    public void dispatch(String path) {
        over(() -> jetty.dispatch(path));
    }

    @Override
    public void dispatch(ServletContext context, String path) {
        over(() -> jetty.dispatch(context, path));
    }

    @Override
    public void complete() {
        over(jetty::complete);
    }

    @Override
    public void start(Runnable run) {
        over(() -> jetty.start(run));
    }

    @Override
    public void addListener(AsyncListener listener) {
        over(() -> jetty.addListener(listener));
    }

    @Override
    public void addListener(AsyncListener listener, ServletRequest request, ServletResponse response) {
        over(() -> jetty.addListener(listener, request, response));
    }

    @Override
    public <T extends AsyncListener> T createListener(Class<T> type) throws ServletException {
        return jetty.createListener(type);
    }

    @Override
    public void setTimeout(long timeout) {
        over(() -> jetty.setTimeout(timeout));
    }

    @Override
    public long getTimeout() {
        return over(jetty::getTimeout);
    }
}
