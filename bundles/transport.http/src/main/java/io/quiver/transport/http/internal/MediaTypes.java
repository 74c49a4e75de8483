package io.quiver.transport.http.internal;

import java.util.Locale;

/** The small part of content negotiation Streamable HTTP needs. */
final class MediaTypes {

    static final String JSON = "application/json";
    static final String SSE = "text/event-stream";

    private MediaTypes() {
    }

    /** Whether an Accept header admits a type (wildcards count). */
    static boolean accepts(String accept, String type) {
        if (accept == null) {
            return false;
        }
        String major = type.substring(0, type.indexOf('/'));
        for (String part : accept.split(",")) {
            String range = part.split(";")[0].trim().toLowerCase(Locale.ROOT);
            if (range.equals(type) || range.equals("*/*") || range.equals(major + "/*")) {
                return true;
            }
        }
        return false;
    }

    /** Whether a Content-Type header is JSON (parameters such as charset allowed). */
    static boolean isJson(String contentType) {
        return contentType != null
                && contentType.split(";")[0].trim().toLowerCase(Locale.ROOT).equals(JSON);
    }
}
