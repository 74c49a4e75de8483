package io.quiver.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CallReportTest {

    private static String format(String response, JsonNode... logs) {
        return CallReport.format(new ShellClient.Answer(FakeEngine.JSON.readTree(response), List.of(logs)), FakeEngine.JSON);
    }

    @Test
    void textBlocksStructuredContentAndIsError() {
        String out = format("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":["
                + "{\"type\":\"text\",\"text\":\"first\"},"
                + "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"AAAA\"},"
                + "{\"type\":\"resource_link\",\"uri\":\"file:///x\",\"name\":\"x\"},"
                + "{\"type\":\"resource\",\"resource\":{\"uri\":\"test://t\",\"text\":\"embedded text\"}}],"
                + "\"structuredContent\":{\"a\":1},\"isError\":false}}");
        assertEquals("first\n[image image/png, 3 bytes]\n[resource link file:///x]\nembedded text\n"
                + "structuredContent: {\n  \"a\" : 1\n}\nisError: false\n", out);
    }

    @Test
    void errorResultsSayIsErrorTrue() {
        assertEquals("it broke\nisError: true\n", format(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"it broke\"}],\"isError\":true}}"));
    }

    @Test
    void jsonRpcErrorsShowCodeAndMessage() {
        assertEquals("error -32602: Unknown tool: nope\n",
                format("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":\"Unknown tool: nope\"}}"));
    }

    @Test
    void logMessagesComeFirst() {
        JsonNode log = FakeEngine.JSON.readTree("{\"level\":\"info\",\"data\":\"working\"}");
        assertEquals("[log info] working\ndone\nisError: false\n", format(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}", log));
    }
}
