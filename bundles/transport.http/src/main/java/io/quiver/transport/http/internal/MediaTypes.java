package io.quiver.transport.http.internal;


/** The small part of content negotiation Streamable HTTP needs. */
final class MediaTypes {

    static final String JSON = "application/json";
    static final String SSE = "text/event-stream";

    private MediaTypes() {
    }

    /** Whether an Accept header admits a type (wildcards count). Read in place: this runs on every POST. */
    static boolean accepts(String accept, String type) {
        if (accept == null) {
            return false;
        }
        int slash = type.indexOf('/');
        int at = 0;
        int n = accept.length();
        while (at <= n) {
            int comma = accept.indexOf(',', at);
            int end = comma < 0 ? n : comma;
            int semicolon = accept.indexOf(';', at);
            int rangeEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
            int from = skipSpace(accept, at, rangeEnd);
            int to = trimSpace(accept, from, rangeEnd);
            if (is(accept, from, to, type) || is(accept, from, to, "*/*")
                    || to - from == slash + 2 && accept.regionMatches(true, from, type, 0, slash + 1)
                    && accept.charAt(to - 1) == '*') {
                return true;
            }
            at = end + 1;
        }
        return false;
    }

    /** Whether a Content-Type header is JSON (parameters such as charset allowed). */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        int end = semicolon < 0 ? contentType.length() : semicolon;
        int from = skipSpace(contentType, 0, end);
        return is(contentType, from, trimSpace(contentType, from, end), JSON);
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
