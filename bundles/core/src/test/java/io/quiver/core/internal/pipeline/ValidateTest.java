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
import java.util.List;
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

    /**
     * An annotation inside an object (reachable through {@code properties} alone, as 2026-07-28 allows) is checked
     * as one at the top: missing or different, the call is refused; the header of a value that is not there is
     * not asked for.
     */
    @Test
    void aParamHeaderOfANestedArgumentIsCheckedToo() {
        Stages nested = new Stages().listening().tool("n", call -> Outcome.text("ran"), "{\"type\":\"object\","
                + "\"properties\":{\"loc\":{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\","
                + "\"x-mcp-header\":\"Region\"}}}}}");
        String args = "{\"loc\":{\"region\":\"eu\"}}";
        for (Map<String, String> headers : List.of(Map.<String, String>of(), Map.of("mcp-param-region", "us-east"))) {
            Call call = new Call(nested.scope(CallerIdentity.ANONYMOUS, headers), "n", Stages.args(args));
            new Resolve(nested.catalog).resolve(call);
            McpException e = assertThrows(McpException.class, () -> validate.validate(call), headers.toString());
            assertTrue(e.getMessage().contains("Mcp-Param-Region"), e.getMessage());
        }
        Call agreeing = new Call(nested.scope(CallerIdentity.ANONYMOUS, Map.of("mcp-param-region", "eu")), "n",
                Stages.args(args));
        new Resolve(nested.catalog).resolve(agreeing);
        assertNull(validate.validate(agreeing));
        Call without = new Call(nested.scope(CallerIdentity.ANONYMOUS, Map.of()), "n", Stages.args("{\"loc\":{}}"));
        new Resolve(nested.catalog).resolve(without);
        assertNull(validate.validate(without), "no value at the path: no header asked for");
    }

    /** A header value that is not base64 must be visible ASCII: raw non-ASCII text is refused, its base64 form taken. */
    @Test
    void aParamHeaderWithRawNonAsciiTextIsRefused() {
        Call raw = new Call(stages.scope(CallerIdentity.ANONYMOUS, Map.of("mcp-param-region", "\u00e9")), "t",
                Stages.args("{\"n\":1,\"region\":\"\u00e9\"}"));
        new Resolve(stages.catalog).resolve(raw);
        assertThrows(McpException.class, () -> validate.validate(raw));
        Call tab = new Call(stages.scope(CallerIdentity.ANONYMOUS, Map.of("mcp-param-region", "a\tb")), "t",
                Stages.args("{\"n\":1,\"region\":\"a\\tb\"}"));
        new Resolve(stages.catalog).resolve(tab);
        assertThrows(McpException.class, () -> validate.validate(tab), "a tab is sent in base64 too");
        Call encoded = new Call(stages.scope(CallerIdentity.ANONYMOUS, Map.of("mcp-param-region", "=?base64?w6k=?=")), "t",
                Stages.args("{\"n\":1,\"region\":\"\u00e9\"}"));
        new Resolve(stages.catalog).resolve(encoded);
        assertNull(validate.validate(encoded));
    }

    /**
     * A schema's pattern is matched within a bounded number of steps: one that backtracks (a third party's upstream
     * schema, say) refuses a value it cannot decide in that budget instead of holding the thread for minutes; an
     * ordinary pattern works as before.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.SECONDS,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aPatternThatBacktracksIsDecidedInBoundedSteps() {
        Stages patterned = new Stages().listening().tool("p", call -> Outcome.text("ran"), "{\"type\":\"object\","
                + "\"properties\":{\"s\":{\"type\":\"string\",\"pattern\":\"^(.*a){12}x\"},"
                + "\"w\":{\"type\":\"string\",\"pattern\":\"^[a-z]+$\"}}}");
        CallToolResult refused = validate.validate(patterned.resolved("p", "{\"s\":\"" + "a".repeat(60) + "\"}"));
        assertTrue(refused != null && refused.isError(), "refused, not hung");
        assertNull(validate.validate(patterned.resolved("p", "{\"s\":\"" + "a".repeat(12) + "x\",\"w\":\"abc\"}")));
        assertTrue(validate.validate(patterned.resolved("p", "{\"w\":\"ABC\"}")).isError());
    }

    /**
     * The steps are bounded per request too, not only per value: a backtracking pattern on each item of a large
     * array (each item within its own budget) is decided within the budget all the arguments share.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.SECONDS,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aPatternOnManyValuesIsBoundedForTheWholeRequest() {
        Stages patterned = new Stages().listening().tool("many", call -> Outcome.text("ran"), "{\"type\":\"object\","
                + "\"properties\":{\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\","
                + "\"pattern\":\"^(.*a){12}x\"}}}}");
        String item = "\"" + "a".repeat(40) + "\"";
        String items = String.join(",", java.util.Collections.nCopies(20_000, item));
        CallToolResult refused = validate.validate(patterned.resolved("many", "{\"items\":[" + items + "]}"));
        assertTrue(refused != null && refused.isError(), "refused, not hung");
    }

    @Test
    void editedArgumentsAreCheckedAgainstTheSchema() {
        Call call = stages.resolved("t", "{\"n\":1}");
        call.arguments(Stages.args("{}"));
        CallToolResult refused = validate.revalidate(call);
        assertTrue(Review.toolResult(refused).content().toString().contains("edited arguments"));
    }
}
