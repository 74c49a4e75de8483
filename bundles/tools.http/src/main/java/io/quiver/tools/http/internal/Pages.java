package io.quiver.tools.http.internal;

import com.vladsch.flexmark.html2md.converter.FlexmarkHtmlConverter;
import com.vladsch.flexmark.util.data.MutableDataSet;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.NodeTraversor;

/**
 * What a fetched body is for the model: HTML converted to Markdown (jsoup parses it, flexmark-java's
 * converter writes Markdown), other text as text in its charset, anything else binary.
 */
final class Pages {

    /** Most elements a page may have to be converted to Markdown; a larger one is given as its text. */
    static final int MAX_ELEMENTS = 50_000;
    /** Deepest a page's elements may nest to be converted to Markdown; a deeper one is given as its text. */
    static final int MAX_DEPTH = 128;

    /** The kinds of body. */
    enum Kind { HTML, TEXT, BINARY }

    /**
     * A body's media type and charset.
     *
     * @param mimeType lower case, without parameters; {@code null} when the server sent none
     * @param charset the {@code charset} parameter, or {@code null}
     */
    record MediaType(String mimeType, String charset) {

        static MediaType of(String contentType) {
            if (contentType == null || contentType.isBlank()) {
                return new MediaType(null, null);
            }
            String[] parts = contentType.split(";");
            String mime = parts[0].trim().toLowerCase(Locale.ROOT);
            String charset = null;
            for (int i = 1; i < parts.length; i++) {
                String p = parts[i].trim();
                int eq = p.indexOf('=');
                if (eq > 0 && p.substring(0, eq).trim().equalsIgnoreCase("charset")) {
                    charset = p.substring(eq + 1).trim().replace("\"", "").replace("'", "");
                }
            }
            return new MediaType(mime.isEmpty() ? null : mime, charset);
        }
    }

    /** Media types outside {@code text/*} that are text all the same. */
    private static final Set<String> TEXT_TYPES = Set.of("application/json", "application/xml",
            "application/javascript", "application/x-javascript", "application/ecmascript", "application/yaml",
            "application/x-yaml", "application/toml", "application/sql", "application/graphql",
            "application/x-sh", "application/x-ndjson", "application/jsonl", "application/csv",
            "application/x-www-form-urlencoded", "application/x-tex", "application/x-latex", "image/svg+xml");

    private static final String REMOVED = "script, style, noscript, template, iframe, frame, frameset, object, embed,"
            + " applet, canvas, svg, link, meta, base";

    private Pages() {
    }

    /** What kind of body this is, from its media type, else from its first bytes. */
    static Kind kind(MediaType type, byte[] body) {
        String mime = type.mimeType();
        if (mime == null) {
            return sniffHtml(body) ? Kind.HTML : looksLikeText(body) ? Kind.TEXT : Kind.BINARY;
        }
        if (mime.equals("text/html") || mime.equals("application/xhtml+xml")) {
            return Kind.HTML;
        }
        if (mime.startsWith("text/") || TEXT_TYPES.contains(mime) || mime.endsWith("+json") || mime.endsWith("+xml")) {
            return mime.equals("text/plain") && sniffHtml(body) ? Kind.HTML : Kind.TEXT;
        }
        return Kind.BINARY;
    }

    /** A body as text, in its declared charset, else its byte order mark's, else UTF-8. */
    static String text(MediaType type, byte[] body) {
        Charset charset = charset(type.charset());
        int skip = 0;
        if (body.length >= 3 && (body[0] & 0xff) == 0xef && (body[1] & 0xff) == 0xbb && (body[2] & 0xff) == 0xbf) {
            charset = StandardCharsets.UTF_8;
            skip = 3;
        } else if (body.length >= 2 && (body[0] & 0xff) == 0xfe && (body[1] & 0xff) == 0xff) {
            charset = StandardCharsets.UTF_16BE;
            skip = 2;
        } else if (body.length >= 2 && (body[0] & 0xff) == 0xff && (body[1] & 0xff) == 0xfe) {
            charset = StandardCharsets.UTF_16LE;
            skip = 2;
        }
        return new String(body, skip, body.length - skip, charset == null ? StandardCharsets.UTF_8 : charset);
    }

    /**
     * HTML as Markdown: scripts, styles, frames and other parts without readable text are dropped, links and
     * images made absolute against the page's URL, then the rest converted.
     *
     * @param baseUri the page's URL (after redirects)
     */
    static String markdown(MediaType type, byte[] body, String baseUri) throws IOException {
        Document document = parse(type, body, baseUri);
        document.select(REMOVED).remove();
        int[] shape = shape(document.body());
        if (shape[0] > MAX_ELEMENTS || shape[1] > MAX_DEPTH) {
            // the converter's time grows with the square of such a page and no timeout stops it: its text instead
            return "[This page has " + shape[0] + " elements nested up to " + shape[1] + " deep, more than is converted"
                    + " to Markdown (" + MAX_ELEMENTS + " elements, " + MAX_DEPTH + " deep): its text follows.]\n\n"
                    + document.body().wholeText().replaceAll("\\n\\s*\\n+", "\n\n").strip();
        }
        for (Element link : document.select("a[href]")) {
            String absolute = link.absUrl("href");
            if (!absolute.isEmpty()) {
                link.attr("href", absolute);
            }
        }
        for (Element image : document.select("img[src]")) {
            String absolute = image.absUrl("src");
            if (!absolute.isEmpty()) {
                image.attr("src", absolute);
            }
        }
        StringBuilder markdown = new StringBuilder();
        converter().convert(document.body(), markdown, 1);
        return markdown.toString().strip();
    }

    /** How many elements a page's body has, and how deep they nest: {@code [elements, depth]}. */
    static int[] shape(Element body) {
        int[] shape = new int[2];
        NodeTraversor.traverse((node, depth) -> {
            if (node instanceof Element) {
                shape[0]++;
                shape[1] = Math.max(shape[1], depth);
            }
        }, body);
        return shape;
    }

    /** A converter per page: cheap next to a fetch, and no question of sharing one between calls. */
    private static FlexmarkHtmlConverter converter() {
        MutableDataSet options = new MutableDataSet();
        options.set(FlexmarkHtmlConverter.SETEXT_HEADINGS, false);     // # Heading: one line the model cannot miss
        options.set(FlexmarkHtmlConverter.TYPOGRAPHIC_QUOTES, false);  // keep “ ” ‘ ’ as characters
        options.set(FlexmarkHtmlConverter.TYPOGRAPHIC_SMARTS, false);  // keep … – — as characters
        options.set(FlexmarkHtmlConverter.OUTPUT_UNKNOWN_TAGS, false);
        options.set(FlexmarkHtmlConverter.RENDER_COMMENTS, false);
        options.set(FlexmarkHtmlConverter.MAX_BLANK_LINES, 1);
        return FlexmarkHtmlConverter.builder(options).build();
    }

    private static Document parse(MediaType type, byte[] body, String baseUri) throws IOException {
        Charset charset = charset(type.charset());
        // no declared charset: jsoup reads the byte order mark or <meta charset>, else UTF-8
        return Jsoup.parse(new ByteArrayInputStream(body), charset == null ? null : charset.name(), baseUri);
    }

    private static Charset charset(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        try {
            return Charset.forName(name.trim());
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return null;
        }
    }

    private static boolean sniffHtml(byte[] body) {
        String start = new String(body, 0, Math.min(body.length, 512), StandardCharsets.ISO_8859_1)
                .stripLeading().toLowerCase(Locale.ROOT);
        if (start.startsWith("\u00ef\u00bb\u00bf")) {
            start = start.substring(3).stripLeading();
        }
        return start.startsWith("<!doctype html") || start.startsWith("<html")
                || start.substring(0, Math.min(start.length(), 100)).contains("<html");
    }

    /** No NUL byte and (nearly) no other control characters in the first 8 KiB: text. */
    private static boolean looksLikeText(byte[] body) {
        int n = Math.min(body.length, 8192);
        int control = 0;
        for (int i = 0; i < n; i++) {
            int b = body[i] & 0xff;
            if (b == 0) {
                return false;
            }
            if (b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f' && b != 0x1b) {
                control++;
            }
        }
        return control * 100 <= n;
    }
}
