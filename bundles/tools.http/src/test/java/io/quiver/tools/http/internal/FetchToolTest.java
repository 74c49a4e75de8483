package io.quiver.tools.http.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.TextContent;
import io.quiver.testing.FakeToolCall;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FetchToolTest {

    static final String PAGE = """
            <!DOCTYPE html>
            <html><head><title>A page</title><style>body { color: red }</style>
            <script>document.write("never shown")</script></head>
            <body>
            <h1>The title</h1>
            <p>Some <b>bold</b> text and <a href="/other?x=1">a link</a>.</p>
            <ul><li>one</li><li>two</li></ul>
            <table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
            <pre><code>int x = 1;</code></pre>
            <noscript>Enable JavaScript</noscript>
            <img src="pic.png" alt="A picture">
            <p>“Quotes” – and … kept</p>
            </body></html>
            """;

    private TestServer server;
    private Map<String, Object> settings;
    private Fetcher fetcher;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer("127.0.0.1");
        settings = new HashMap<>(Map.of("allowedHosts", "site.test", "allowedAddresses", "127.0.0.1/32"));
        fetcher = new Fetcher(host -> {
            if (!host.equals("site.test")) {
                throw new UnknownHostException(host);
            }
            return new java.net.InetAddress[] {Addresses.literal("127.0.0.1")};
        }, SSLContext.getDefault());
    }

    @AfterEach
    void stop() {
        fetcher.close();
        server.close();
    }

    private ToolResult call(Map<String, Object> arguments) {
        Policy policy = PolicyTest.policy(settings);
        Outcome outcome = new FetchTool(() -> policy, fetcher).call(FakeToolCall.of("fetch", arguments));
        return ((Outcome.Done) outcome).result();
    }

    private String url(String path) {
        return "http://site.test:" + server.port() + path;
    }

    private static String text(ToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }

    @Test
    void htmlBecomesMarkdownWithAbsoluteLinksAndWithoutScripts() {
        server.content("/page.html", "text/html; charset=utf-8", PAGE);
        ToolResult result = call(Map.of("url", url("/page.html")));
        assertFalse(result.isError(), text(result));
        String text = text(result);
        assertTrue(text.startsWith("Contents of " + url("/page.html") + ":\n# The title\n"), text);
        assertTrue(text.contains("Some **bold** text and [a link](" + url("/other?x=1") + ")."), text);
        assertTrue(text.contains("* one\n* two"), text);
        assertTrue(text.contains("| Name | Value |"), text);
        assertTrue(text.contains("int x = 1;"), text);
        assertTrue(text.contains("![A picture](" + url("/pic.png") + ")"), text);
        assertTrue(text.contains("“Quotes” – and … kept"), text);
        assertFalse(text.contains("never shown"), text);
        assertFalse(text.contains("color: red"), text);
        assertFalse(text.contains("Enable JavaScript"), text);
        assertFalse(text.contains("<error>"), "one piece: " + text);
    }

    @Test
    void aPageNestedTooDeepForTheConverterIsGivenAsItsText() {
        // 50,000 nested divs took the converter minutes of one core, long after the call had timed out
        int depth = 50_000;
        String page = "<html><body>" + "<div>".repeat(depth) + "deep text" + "</div>".repeat(depth) + "</body></html>";
        server.content("/deep.html", "text/html; charset=utf-8", page);
        ToolResult result = call(Map.of("url", url("/deep.html")));
        assertFalse(result.isError(), text(result));
        assertTrue(text(result).contains("its text follows") && text(result).contains("deep text"), text(result));
    }

    @Test
    void rawReturnsTheHtmlItself() {
        server.content("/page.html", "text/html", PAGE);
        String text = text(call(Map.of("url", url("/page.html"), "raw", true, "max_length", 100_000)));
        assertTrue(text.startsWith("Content type text/html cannot be simplified to markdown, but here is the raw"
                + " content:\nContents of " + url("/page.html") + ":\n<!DOCTYPE html>"), text);
        assertTrue(text.contains("<script>document.write"), text);
    }

    @Test
    void longContentComesInPiecesThatAddUpToTheWhole() {
        StringBuilder html = new StringBuilder("<html><body>");
        for (int i = 0; i < 400; i++) {
            html.append("<p>Paragraph ").append(i).append(" of the long page.</p>");
        }
        server.content("/long.html", "text/html", html.append("</body></html>").toString());
        String whole = text(call(Map.of("url", url("/long.html"), "max_length", 999_999)));
        String header = "Contents of " + url("/long.html") + ":\n";
        String all = whole.substring(header.length());
        assertTrue(all.length() > 10_000, "long enough for three pieces: " + all.length());

        StringBuilder joined = new StringBuilder();
        long start = 0;
        for (int calls = 0; calls < 10; calls++) {
            ToolResult piece = call(Map.of("url", url("/long.html"), "start_index", start));
            String text = text(piece).substring(header.length());
            int marker = text.indexOf("\n\n<error>Content truncated.");
            if (marker < 0) {
                joined.append(text);
                break;
            }
            assertEquals(FetchTool.DEFAULT_MAX_LENGTH, marker, "a full piece of the default max_length");
            joined.append(text, 0, marker);
            start += marker;
            assertTrue(text.endsWith("start_index of " + start + " to get more content.</error>"), text);
        }
        assertEquals(all, joined.toString());

        ToolResult past = call(Map.of("url", url("/long.html"), "start_index", 1_000_000));
        assertTrue(past.isError());
        assertTrue(text(past).startsWith("<error>No more content available.</error>"), text(past));
    }

    @Test
    void otherTextIsReturnedAsTextInItsCharset() {
        server.content("/data.json", "application/json", "{\"a\": 1}");
        server.content("/latin.txt", "text/plain; charset=ISO-8859-1", "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals("Content type application/json cannot be simplified to markdown, but here is the raw content:\n"
                + "Contents of " + url("/data.json") + ":\n{\"a\": 1}", text(call(Map.of("url", url("/data.json")))));
        assertTrue(text(call(Map.of("url", url("/latin.txt")))).endsWith(":\ncaf\u00e9"));
    }

    @Test
    void binaryContentIsAnEmbeddedResource() {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 1, 2, 3};
        server.content("/pic.png", "image/png", png);
        ToolResult result = call(Map.of("url", url("/pic.png")));
        assertFalse(result.isError());
        assertTrue(text(result).contains("20 bytes of image/png"), text(result));
        ResourceContents.Blob blob = (ResourceContents.Blob) ((EmbeddedResource) result.content().get(1)).resource();
        assertEquals(url("/pic.png"), blob.uri());
        assertEquals("image/png", blob.mimeType());
        assertArrayEquals(png, Base64.getDecoder().decode(blob.blob()));

        settings.put("maxBinaryBytes", "10");
        ToolResult tooBig = call(Map.of("url", url("/pic.png")));
        assertTrue(tooBig.isError());
        assertTrue(text(tooBig).contains("more than 10 bytes (maxBinaryBytes)"), text(tooBig));
    }

    @Test
    void aCutBodyIsSaidToBeCut() {
        server.content("/big.txt", "text/plain", "y".repeat(5000));
        settings.put("maxBytes", "1024");
        ToolResult refused = call(Map.of("url", url("/big.txt")));
        assertTrue(refused.isError());
        assertTrue(text(refused).contains("larger than the limit of 1024 bytes"), text(refused));
        settings.put("overLimit", "truncate");
        String cut = text(call(Map.of("url", url("/big.txt"))));
        assertTrue(cut.contains("[The response was larger than 1024 bytes (maxBytes); only its first 1024 bytes were read"),
                cut);
        assertTrue(cut.endsWith(":\n" + "y".repeat(1024)), cut);
    }

    @Test
    void anEmptyPageSaysSo() {
        server.content("/app.html", "text/html", "<html><body><div id=app></div><script>render()</script></body></html>");
        server.on("/empty", e -> TestServer.send(e, 200, "text/plain", new byte[0]));
        ToolResult app = call(Map.of("url", url("/app.html")));
        assertFalse(app.isError());
        assertTrue(text(app).contains("it may be built by JavaScript"), text(app));
        ToolResult empty = call(Map.of("url", url("/empty")));
        assertFalse(empty.isError());
        assertTrue(text(empty).endsWith("(The response has no content.)"), text(empty));
    }

    @Test
    void refusalsAndFailuresAreErrorsTheModelCanRead() {
        ToolResult elsewhere = call(Map.of("url", "https://elsewhere.test/"));
        assertTrue(elsewhere.isError());
        assertTrue(text(elsewhere).contains("the host elsewhere.test is not allowed. The hosts this server may fetch from"
                + " are: site.test"), text(elsewhere));
        assertTrue(call(Map.of("url", "not a url")).isError());
        settings.put("allowedHosts", "");
        ToolResult off = call(Map.of("url", url("/")));
        assertTrue(text(off).contains("allows fetching from no host"), text(off));
        assertTrue(server.requests().isEmpty());
    }
}
