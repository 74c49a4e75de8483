package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.call.CallEvent;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.rpc.McpException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValidateTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\","
            + "\"x-mcp-header\":\"Region\"},\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}";

    private final Stages stages = new Stages().listening().tool("t", call -> Outcome.text("ran"), SCHEMA);
    private final Validate validate = new Validate();

    @Test
    void validArgumentsPass() {
        assertNull(validate.validate(stages.resolved("t", "{\"n\":1}")));
    }

    @Test
    void argumentsAgainstTheSchemaAreAnErrorResultTheModelCanFix() {
        Call call = stages.resolved("t", "{\"n\":\"one\"}");
        CallToolResult refused = validate.validate(call);
        assertTrue(refused.isError());
        String text = Review.toolResult(refused).content().toString();
        assertTrue(text.contains("Invalid arguments for tool t"), text);
        assertEquals(CallEvent.Ending.INVALID, stages.over(call).ending());
    }

    @Test
    void aParamHeaderThatDiffersFromItsArgumentIsAProtocolError() {
        Call call = new Call(stages.scope(CallerIdentity.ANONYMOUS, Map.of("mcp-param-region", "us")), "t",
                Stages.args("{\"n\":1,\"region\":\"eu\"}"));
        new Resolve(stages.catalog).resolve(call);
        McpException e = assertThrows(McpException.class, () -> validate.validate(call));
        assertTrue(e.getMessage().contains("Mcp-Param-Region differs"), e.getMessage());

        Call agreeing = new Call(stages.scope(CallerIdentity.ANONYMOUS, Map.of("mcp-param-region", "eu")), "t",
                Stages.args("{\"n\":1,\"region\":\"eu\"}"));
        new Resolve(stages.catalog).resolve(agreeing);
        assertNull(validate.validate(agreeing));
    }

    @Test
    void editedArgumentsAreCheckedAgainstTheSchema() {
        Call call = stages.resolved("t", "{\"n\":1}");
        call.arguments(Stages.args("{}"));
        CallToolResult refused = validate.revalidate(call);
        assertTrue(Review.toolResult(refused).content().toString().contains("edited arguments"));
    }
}
