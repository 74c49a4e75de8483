package io.quiver.transport.http.internal;


/** The small part of content negotiation Streamable HTTP needs. */
final class MediaTypes {

    static final String JSON = "application/json";
    static final String SSE = "text/event-stream";

    private MediaTypes() {
    }

    /**
     * Whether an Accept header admits a type: the most specific range that matches it (the type itself, then
     * {@code type/*}, then <code>*&#47;*</code>) decides, and one with {@code q=0} says "not this" (RFC 9110,
     * 12.5.1), so {@code *}{@code /*, application/json;q=0} refuses JSON. Read in place: this runs on every POST.
     */
    static boolean accepts(String accept, String type) {
        if (accept == null) {
            return false;
        }
        int slash = type.indexOf('/');
        int at = 0;
        int n = accept.length();
        int best = 0; // 3 the type, 2 its type/*, 1 */*
        boolean refused = false;
        while (at <= n) {
            int comma = accept.indexOf(',', at);
            int end = comma < 0 ? n : comma;
            int semicolon = accept.indexOf(';', at);
            int rangeEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
            int from = skipSpace(accept, at, rangeEnd);
            int to = trimSpace(accept, from, rangeEnd);
            int specificity = is(accept, from, to, type) ? 3
                    : to - from == slash + 2 && accept.regionMatches(true, from, type, 0, slash + 1)
                            && accept.charAt(to - 1) == '*' ? 2
                    : is(accept, from, to, "*/*") ? 1 : 0;
            if (specificity > best) {
                best = specificity;
                refused = qualityZero(accept, rangeEnd, end);
            } else if (specificity == best && specificity > 0) {
                refused &= qualityZero(accept, rangeEnd, end); // the same range twice: either one admits
            }
            at = end + 1;
        }
        return best > 0 && !refused;
    }

    /** Whether the parameters of a range (from its {@code ;} to its end) hold {@code q=0} ({@code 0.0}, {@code 0.000}). */
    private static boolean qualityZero(String accept, int from, int end) {
        for (int at = from; at < end; ) {
            int next = accept.indexOf(';', at + 1);
            int stop = next < 0 || next > end ? end : next;
            int start = skipSpace(accept, at + 1, stop);
            int equals = accept.indexOf('=', start);
            if (equals > 0 && equals < stop && trimSpace(accept, start, equals) - start == 1
                    && (accept.charAt(start) == 'q' || accept.charAt(start) == 'Q')) {
                int v = skipSpace(accept, equals + 1, stop);
                int vEnd = trimSpace(accept, v, stop);
                if (v < vEnd && accept.charAt(v) == '0') {
                    int i = v + 1;
                    if (i < vEnd && accept.charAt(i) == '.') {
                        i++;
                        while (i < vEnd && accept.charAt(i) == '0') {
                            i++;
                        }
                    }
                    return i == vEnd;
                }
                return false;
            }
            at = stop;
        }
        return false;
    }

    /**
     * Whether a Content-Type header is JSON the server reads as it is sent: UTF-8 (a {@code charset} parameter, if
     * any, says {@code utf-8}; another one would be read wrongly), other parameters allowed.
     */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        int end = semicolon < 0 ? contentType.length() : semicolon;
        int from = skipSpace(contentType, 0, end);
        if (!is(contentType, from, trimSpace(contentType, from, end), JSON)) {
            return false;
        }
        for (int at = end; at < contentType.length(); ) {
            int next = contentType.indexOf(';', at + 1);
            int stop = next < 0 ? contentType.length() : next;
            String parameter = contentType.substring(at + 1, stop).strip();
            int equals = parameter.indexOf('=');
            if (equals > 0 && parameter.substring(0, equals).strip().equalsIgnoreCase("charset")) {
                String charset = parameter.substring(equals + 1).strip().replace("\"", "");
                if (!charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
                    return false;
                }
            }
            at = stop;
        }
        return true;
    }

    /** Whether a body is sent as it is: no {@code Content-Encoding}, or {@code identity} (the server decodes none). */
    static boolean unencoded(String contentEncoding) {
        return contentEncoding == null || contentEncoding.isBlank() || contentEncoding.strip().equalsIgnoreCase("identity");
    }

    private static boolean is(String text, int from, int to, String expected) {
        return to - from == expected.length() && text.regionMatches(true, from, expected, 0, expected.length());
    }

    private static int skipSpace(String text, int from, int to) {
        while (from < to && Character.isWhitespace(text.charAt(from))) {
            from++;
        }
        return from;
    }

    private static int trimSpace(String text, int from, int to) {
        while (to > from && Character.isWhitespace(text.charAt(to - 1))) {
            to--;
        }
        return to;
    }
}
