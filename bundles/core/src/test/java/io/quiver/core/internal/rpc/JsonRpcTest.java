package io.quiver.core.internal.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.core.internal.json.Json;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonRpcTest {

    private static JsonRpc.Parsed parse(String text) {
        return JsonRpc.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonRpc.Parsed.Bad bad(String text) {
        return assertInstanceOf(JsonRpc.Parsed.Bad.class, parse(text));
    }

    private static Message ok(String text) {
        return assertInstanceOf(JsonRpc.Parsed.Ok.class, parse(text)).message();
    }

    @Test
    void malformedJsonIsAParseError() {
        JsonRpc.Parsed.Bad bad = bad("{\"jsonrpc\":\"2.0\",");
        assertEquals(ErrorCodes.PARSE_ERROR, bad.code());
        assertNull(bad.id());
        assertEquals(ErrorCodes.PARSE_ERROR, bad("").code());
    }

    /**
     * MCP messages are UTF-8: a body in UTF-16 or UTF-32 (which the JSON reader would detect and read) is a parse
     * error that says so, with or without a byte-order mark; UTF-8 with its mark and non-ASCII text still read.
     */
    @Test
    void aBodyThatIsNotUtf8IsAParseError() {
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        for (Charset encoding : new Charset[] {StandardCharsets.UTF_16, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE,
                Charset.forName("UTF-32"), Charset.forName("UTF-32LE")}) {
            JsonRpc.Parsed.Bad bad = assertInstanceOf(JsonRpc.Parsed.Bad.class, JsonRpc.parse(ping.getBytes(encoding)),
                    encoding.name());
            assertEquals(ErrorCodes.PARSE_ERROR, bad.code(), encoding.name());
            assertEquals("Parse error: the body must be UTF-8 (it looks like UTF-16 or UTF-32)", bad.reason(), encoding.name());
        }
        assertEquals("ping", assertInstanceOf(Message.Request.class, ok("\ufeff" + ping)).method(), "UTF-8 with a byte-order mark");
        Message.Request wide = assertInstanceOf(Message.Request.class,
                ok(" " + ping.replace("ping\"}", "ping\",\"params\":{\"é\":\"日本\"}}")));
        assertEquals("日本", wide.params().path("é").asString());
    }

    /** JSON nested past the reader's limit is a parse error that says which limit, not "not valid JSON". */
    @Test
    void nestingPastTheReadersLimitIsAParseErrorThatSaysSo() {
        String deep = "[".repeat(1_000) + "]".repeat(1_000);
        JsonRpc.Parsed.Bad bad = bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":" + deep + "}}");
        assertEquals(ErrorCodes.PARSE_ERROR, bad.code());
        assertTrue(bad.reason().startsWith("Parse error: the body exceeds a limit of the JSON reader (")
                && bad.reason().contains("nesting depth"), bad.reason());
    }

    @Test
    void aKeyNamedTwiceInOneObjectIsAParseErrorThatNamesIt() {
        // a reader that takes the first "name" (a gateway, a log) would see another call than the last one
        JsonRpc.Parsed.Bad bad = bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"read_file\",\"arguments\":{},\"name\":\"delete_file\"}}");
        assertEquals(ErrorCodes.PARSE_ERROR, bad.code());
        assertEquals("Parse error: the key \"name\" appears twice in one object", bad.reason());
        assertNull(bad.id(), "which id would it be");
        assertEquals(ErrorCodes.PARSE_ERROR, bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}").code());
        assertEquals(ErrorCodes.PARSE_ERROR, bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"t\",\"arguments\":{\"path\":\"a\",\"path\":\"b\"}}}").code(), "in the arguments too");
        assertEquals("Parse error: the body is not valid JSON", bad("{\"a\":").reason());
        assertInstanceOf(Message.Request.class, ok("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"t\",\"arguments\":{\"name\":\"x\"}}}"), "the same key in two objects is fine");
    }

    @Test
    void anArrayIsABatchOfElementsEachReadAloneAndAScalarIsInvalid() {
        JsonRpc.Parsed.Batch batch = assertInstanceOf(JsonRpc.Parsed.Batch.class,
                parse("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},7,[]]"));
        assertEquals(3, batch.elements().size());
        Message.Request ping = assertInstanceOf(Message.Request.class,
                assertInstanceOf(JsonRpc.Parsed.Ok.class, JsonRpc.parse(batch.elements().get(0))).message());
        assertEquals("ping", ping.method());
        assertEquals(ErrorCodes.INVALID_REQUEST, assertInstanceOf(JsonRpc.Parsed.Bad.class,
                JsonRpc.parse(batch.elements().get(1))).code());
        assertEquals(ErrorCodes.INVALID_REQUEST, assertInstanceOf(JsonRpc.Parsed.Bad.class,
                JsonRpc.parse(batch.elements().get(2))).code(), "a batch inside a batch is an invalid element");
        assertEquals(ErrorCodes.INVALID_REQUEST, bad("42").code());
    }

    @Test
    void wrongVersionKeepsTheIdForTheErrorResponse() {
        JsonRpc.Parsed.Bad bad = bad("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"}");
        assertEquals(ErrorCodes.INVALID_REQUEST, bad.code());
        assertEquals(7, bad.id().asInt());
    }

    @Test
    void nullOrFractionalIdsAndNonObjectParamsAreInvalid() {
        assertEquals(ErrorCodes.INVALID_REQUEST, bad("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}").code());
        assertEquals(ErrorCodes.INVALID_REQUEST, bad("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}").code());
        assertEquals(ErrorCodes.INVALID_REQUEST, bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":\"p\"}").code());
        JsonRpc.Parsed.Bad byPosition = bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":[1]}");
        assertEquals(ErrorCodes.INVALID_PARAMS, byPosition.code(), "valid JSON-RPC, params MCP's methods do not take");
        assertEquals(1, byPosition.id().asInt());
        assertEquals(ErrorCodes.INVALID_REQUEST, bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}").code());
    }

    /** An error response without an id (its sender could not read ours) is a response, not an invalid message. */
    @Test
    void anErrorResponseWithoutAnIdIsAResponse() {
        for (String text : new String[] {"{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"x\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"x\"}}"}) {
            Message.Response response = assertInstanceOf(Message.Response.class, ok(text));
            assertTrue(response.id().isNull(), text);
            assertEquals(-32700, response.error().path("code").asInt());
        }
        assertEquals(ErrorCodes.INVALID_REQUEST, bad("{\"jsonrpc\":\"2.0\",\"result\":{}}").code(), "a result names its request");
    }

    @Test
    void classifiesRequestsNotificationsAndResponses() {
        Message.Request request = assertInstanceOf(Message.Request.class,
                ok("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}"));
        assertEquals("tools/list", request.method());
        assertEquals("a", request.id().asString());
        assertEquals(0, request.params().size());
        assertInstanceOf(Message.Notification.class,
                ok("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        Message.Response response = assertInstanceOf(Message.Response.class,
                ok("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"action\":\"accept\"}}"));
        assertEquals("accept", response.result().path("action").asString());
        assertEquals(ErrorCodes.INVALID_REQUEST, bad("{\"jsonrpc\":\"2.0\",\"id\":3}").code());
    }

    @Test
    void errorResponsesCarryIdCodeAndMessageOnly() {
        JsonNode node = Json.MAPPER.readTree(JsonRpc.error(Json.MAPPER.getNodeFactory().numberNode(9),
                new RpcError(ErrorCodes.METHOD_NOT_FOUND, "Method not found: x", null)));
        assertEquals(9, node.path("id").asInt());
        assertEquals(-32601, node.path("error").path("code").asInt());
        assertEquals("Method not found: x", node.path("error").path("message").asString());
        assertEquals(false, node.path("error").has("data"));
        JsonNode anonymous = Json.MAPPER.readTree(JsonRpc.error(null, new RpcError(-32700, "Parse error", null)));
        assertEquals(true, anonymous.get("id").isNull());
    }
}
