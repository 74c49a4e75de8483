package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where the MCP endpoint is served and which tenant and project a request's URL names: the default
 * tenant's endpoint ({@code path}, {@code /mcp}) and every named tenant's ({@code tenantPath},
 * {@code /t/{tenant}/mcp}, or an operator's template such as {@code /brain/{tenant}/mcp}), each with
 * an optional {@code projectId} query parameter.
 */
final class Endpoints {

    static final String TENANT_VARIABLE = "{tenant}";
    static final String PROJECT_PARAMETER = "projectId";

    /** The place of a URL that names a project that is not a valid name. */
    static final class BadProject extends Exception {
        private static final long serialVersionUID = 1L;

        BadProject(String message) {
            super(message, null, false, false);
        }
    }

    private final String path;
    private final String tenantPath;
    /** The tenant template's parts before and after {tenant}; prefix null when named tenants are not served. */
    private final String prefix;
    private final String suffix;

    /**
     * @param path the default tenant's endpoint path
     * @param tenantPath the named tenants' template, empty for none
     * @throws IllegalArgumentException when the template is not one path with {tenant} as a whole segment
     */
    Endpoints(String path, String tenantPath) {
        this.path = path;
        String t = tenantPath == null ? "" : tenantPath.trim();
        this.tenantPath = t;
        if (t.isEmpty()) {
            prefix = null;
            suffix = null;
            return;
        }
        if (!t.startsWith("/")) {
            t = "/" + t;
        }
        int at = t.indexOf(TENANT_VARIABLE);
        if (at < 0 || t.indexOf(TENANT_VARIABLE, at + 1) >= 0) {
            throw new IllegalArgumentException("tenantPath must name {tenant} once, as in /t/{tenant}/mcp");
        }
        String before = t.substring(0, at);
        String after = t.substring(at + TENANT_VARIABLE.length());
        if (before.length() < 2 || !before.endsWith("/") || !(after.isEmpty() || after.startsWith("/"))) {
            throw new IllegalArgumentException("tenantPath must have {tenant} as a whole path segment after a fixed"
                    + " one, as in /t/{tenant}/mcp");
        }
        if (before.contains("*") || after.contains("*") || after.contains("{") || before.contains("{")) {
            throw new IllegalArgumentException("tenantPath may hold no wildcard and no variable but {tenant}");
        }
        prefix = before.substring(0, before.length() - 1);
        suffix = after;
    }

    /** The named tenants' template as given (empty: none). */
    String tenantPath() {
        return tenantPath;
    }

    /** The servlet patterns that reach this endpoint: the path, and the tenants' prefix with everything under it. */
    String[] patterns() {
        return prefix == null ? new String[] {path} : new String[] {path, prefix + "/*"};
    }

    /**
     * The tenant a request path names ({@link CallerIdentity#DEFAULT_TENANT} at the default endpoint),
     * or {@code null} when the path is not an endpoint (another path under the tenants' prefix, a
     * tenant name that is not one).
     */
    String tenantOf(String requestPath) {
        if (requestPath.equals(path)) {
            return CallerIdentity.DEFAULT_TENANT;
        }
        if (prefix == null || !requestPath.startsWith(prefix + "/") || !requestPath.endsWith(suffix)) {
            return null;
        }
        String tenant = requestPath.substring(prefix.length() + 1, requestPath.length() - suffix.length());
        return CallerIdentity.isPlaceName(tenant) ? tenant : null;
    }

    /**
     * The {@code projectId} of a raw query string ({@code null}: none). Read from the query itself, never
     * through the servlet's parameters, which would read a form body.
     */
    static String projectOf(String query) throws BadProject {
        if (query == null || query.isEmpty()) {
            return null;
        }
        String found = null;
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (!PROJECT_PARAMETER.equals(name)) {
                continue;
            }
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (found != null && !found.equals(value)) {
                throw new BadProject("Bad Request: projectId is given twice");
            }
            found = value;
        }
        if (found != null && !CallerIdentity.isPlaceName(found)) {
            throw new BadProject("Bad Request: projectId must be 1 to 64 of A-Z a-z 0-9 _ . - starting with a letter or"
                    + " digit");
        }
        return found;
    }

    private static String decode(String text) throws BadProject {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadProject("Bad Request: the query string is not valid");
        }
    }
}
