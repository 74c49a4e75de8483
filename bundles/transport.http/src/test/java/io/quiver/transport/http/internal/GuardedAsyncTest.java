package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.servlet.AsyncContext;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Jetty's async context, touched while Jetty recycles a request whose client left, throws a
 * {@link NullPointerException} from inside; the guard turns it into the {@link IllegalStateException} Jetty
 * throws once the request is over, which the transport takes for "the client left". Everything else passes.
 */
class GuardedAsyncTest {

    /** An async context whose every method fails as Jetty's does mid-recycle, counting the calls. */
    private static AsyncContext recycling(AtomicInteger calls, RuntimeException failure) {
        return (AsyncContext) Proxy.newProxyInstance(AsyncContext.class.getClassLoader(),
                new Class<?>[] {AsyncContext.class}, (proxy, method, args) -> {
                    calls.incrementAndGet();
                    throw failure;
                });
    }

    @Test
    void jettysNullPointerMidRecycleIsTheRequestBeingOver() {
        AtomicInteger calls = new AtomicInteger();
        AsyncContext guarded = GuardedAsync.guard(recycling(calls, new NullPointerException("getAsyncContextEvent() is null")));
        IllegalStateException over = assertThrows(IllegalStateException.class, guarded::getResponse);
        assertEquals(NullPointerException.class, over.getCause().getClass());
        assertThrows(IllegalStateException.class, guarded::getRequest);
        assertThrows(IllegalStateException.class, guarded::complete);
        assertThrows(IllegalStateException.class, () -> guarded.setTimeout(0));
        assertEquals(4, calls.get(), "each call went to Jetty's context");
    }

    @Test
    void otherFailuresPassAsTheyAreAndGuardingTwiceIsOnce() {
        IllegalStateException completed = new IllegalStateException("AsyncContext completed");
        AsyncContext guarded = GuardedAsync.guard(recycling(new AtomicInteger(), completed));
        assertSame(completed, assertThrows(IllegalStateException.class, guarded::getResponse));
        assertSame(guarded, GuardedAsync.guard(guarded));
    }
}
