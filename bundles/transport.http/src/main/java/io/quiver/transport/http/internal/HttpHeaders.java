package io.quiver.transport.http.internal;

/** How the transport reads request headers. */
final class HttpHeaders {

    private HttpHeaders() {
    }

    /**
     * A header's values when it is sent more than once: one list, joined by {@code ", "} (RFC 9110, 5.3). A
     * header that takes one value is then not what it was alone, and is refused wherever it is checked
     * ({@code Mcp-Name} against the body, a session id, a protocol revision, a credential).
     */
    static String joined(String first, String next) {
        return first + ", " + next;
    }
}
