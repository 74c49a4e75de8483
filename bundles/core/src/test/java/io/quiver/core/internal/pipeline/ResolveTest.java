package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quiver.api.Outcome;
import io.quiver.api.call.CallEvent;
import io.quiver.core.internal.rpc.McpException;
import org.junit.jupiter.api.Test;

class ResolveTest {

    private final Stages stages = new Stages().listening();

    @Test
    void findsTheToolTheCatalogHasNow() {
        stages.tool("echo", call -> Outcome.text("hi"), null);
        Call call = stages.resolved("echo", "{}");
        assertEquals("echo", call.tool().name());
    }

    @Test
    void anUnknownToolIsInvalidParamsAndEndsTheCallAsInvalid() {
        Call call = stages.call("nope", "{}");
        McpException e = assertThrows(McpException.class, () -> new Resolve(stages.catalog).resolve(call));
        assertEquals(-32602, e.code());
        assertEquals("Unknown tool: nope", e.getMessage());
        CallEvent event = stages.over(call);
        assertEquals(CallEvent.Ending.INVALID, event.ending());
        assertEquals("resolve", event.decisions().get(0).stage());
    }
}
