package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.call.Admission;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Invocation;
import io.quiver.api.content.TextContent;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReviewTest {

    private final Stages stages = new Stages().listening().tool("t", call -> Outcome.text("ran"), null);
    private final Review review = new Review(stages.hostWait);
    private final CallToolResult result = CallToolResult.of(ToolResult.text("secret 42"), Json.MAPPER);

    private Call admitted(HostChannel host) {
        stages.extensions.addHost(host, 0, 1);
        Call call = stages.resolved("t", "{}");
        new Admit(stages.extensions, new Validate(), stages.hostWait).admit(call);
        return call;
    }

    @Test
    void withoutAHostTheResultGoesOutAsItIs() {
        assertSame(result, review.review(stages.resolved("t", "{}"), result));
    }

    @Test
    void theHostMayReplaceTheResult() {
        Call call = admitted(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public ToolResult review(Invocation invocation, ToolResult given) {
                return ToolResult.text(given.content().toString().contains("secret") ? "redacted" : "kept");
            }
        });
        CallToolResult reviewed = review.review(call, result);
        assertEquals("redacted", ((TextContent) reviewed.content().get(0)).text());
        assertEquals(List.of("admit", "release", "review"),
                stages.over(call).decisions().stream().map(CallEvent.Step::stage).toList());
    }

    @Test
    void aHostThatFailsToReviewFailsTheCallRatherThanDeliverUnreviewed() {
        Call call = admitted(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public ToolResult review(Invocation invocation, ToolResult given) {
                throw new IllegalStateException("review crashed");
            }
        });
        CallToolResult reviewed = review.review(call, result);
        assertTrue(reviewed.isError());
        assertTrue(!Review.toolResult(reviewed).content().toString().contains("secret"));
        assertEquals(CallEvent.Ending.FAILED, stages.over(call).ending());
    }
}
