package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import io.quiver.api.auth.Authenticator;
import io.quiver.lib.config.TypedConfig;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who a request comes from: the bearer token of its {@code Authorization} header, checked by the
 * registered {@link Authenticator}s. Authentication is required as soon as one is registered, or
 * when the server was told it must be ({@code quiver.auth.required}, set by the launcher when
 * authentication is configured, so that the endpoint refuses everyone until the authenticators are
 * up instead of serving anonymously meanwhile). Otherwise every request is the anonymous local
 * caller.
 *
 * <p>Refusals follow RFC 6750 and RFC 9728: 401 with {@code WWW-Authenticate: Bearer
 * resource_metadata="..."} (and {@code error="invalid_token"} when a token was presented), 403 with
 * {@code error="insufficient_scope"} when the token lacks a required scope. Tokens and the reasons
 * they were refused never reach the client; reasons go to the log without the token.
 */
final class Gatekeeper {

    /** The framework property that makes authentication required before any authenticator is up. */
    static final String REQUIRED_PROPERTY = "quiver.auth.required";
    static final String METADATA_PATH = "/.well-known/oauth-protected-resource";

    private static final Logger LOG = LoggerFactory.getLogger(Gatekeeper.class);

    /** What became of a request's credentials. */
    sealed interface Verdict {
    }

    record Admitted(CallerIdentity caller) implements Verdict {
    }

    /** Refused: the status, the {@code WWW-Authenticate} value and the message of the error body. */
    record Challenged(int status, String challenge, String message) implements Verdict {
    }

    private static final Admitted ANONYMOUS = new Admitted(CallerIdentity.ANONYMOUS);

    private final boolean requiredByServer;
    private final Throttled refusals = new Throttled(LOG, 10_000);
    private volatile List<Authenticator> authenticators = List.of();
    private volatile String resourceUrl = "";
    private volatile List<String> requiredScopes = List.of();
    private volatile String endpointPath = "/mcp";

    Gatekeeper(boolean requiredByServer) {
        this.requiredByServer = requiredByServer;
    }

    /** The authenticators to ask, in order (highest ranking first). */
    void authenticators(List<Authenticator> ordered) {
        this.authenticators = List.copyOf(ordered);
    }

    void configure(HttpConfig c) {
        this.resourceUrl = c.resourceUrl() == null ? "" : c.resourceUrl().trim();
        this.requiredScopes = TypedConfig.list(c.requiredScopes());
        this.endpointPath = HttpTransport.path(c);
    }

    /**
     * Whether checking a credential waits on nothing: every authenticator asked says its checks never
     * wait ({@link Authenticator#waitsOnNothing()}), so the thread that read the request may check it.
     */
    boolean checksWithoutWaiting() {
        return waitOnNothing(authenticators);
    }

    private static boolean waitOnNothing(List<Authenticator> asked) {
        for (Authenticator authenticator : asked) {
            try {
                if (!authenticator.waitsOnNothing()) {
                    return false;
                }
            } catch (RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    /** Whether requests must authenticate. */
    boolean required() {
        return requiredByServer || !authenticators.isEmpty();
    }

    /**
     * Who a request's credential says its caller is: from its {@code Authorization} header, its client's
     * address (for the log) and, for a challenge, its metadata URL. {@code withoutWaiting}: null, nothing
     * asked, when an authenticator (of the same list the check would ask) may wait
     * ({@link #checksWithoutWaiting()}).
     */
    Verdict check(String authorization, String remoteAddr, Supplier<String> metadataUrl, boolean withoutWaiting) {
        List<Authenticator> asked = authenticators;
        if (asked.isEmpty() && !requiredByServer) {
            return ANONYMOUS;
        }
        if (withoutWaiting && !waitOnNothing(asked)) {
            return null;
        }
        String token = bearer(authorization);
        if (token == null) {
            return new Challenged(401, "Bearer resource_metadata=\"" + metadataUrl.get() + "\"",
                    "Unauthorized: this endpoint needs an Authorization: Bearer token");
        }
        Authentication found = Authentication.notMine();
        for (Authenticator authenticator : asked) {
            try {
                found = authenticator.authenticate(token);
            } catch (RuntimeException e) {
                LOG.error("An authenticator failed; the request is refused", e);
                found = Authentication.refused("the authenticator failed");
            }
            if (found.status() != Authentication.Status.NOT_MINE) {
                break;
            }
        }
        if (!found.accepted()) {
            String reason = found.status() == Authentication.Status.NOT_MINE ? "no authenticator accepts tokens of this form"
                    : found.reason();
            refusals.warn("requests were refused for their bearer token (the last: {})", reason + ", from " + remoteAddr);
            return new Challenged(401, "Bearer error=\"invalid_token\", error_description=\"The access token is"
                    + " invalid or expired\", resource_metadata=\"" + metadataUrl.get() + "\"",
                    "Unauthorized: the bearer token was not accepted");
        }
        Set<String> granted = found.scopes();
        List<String> missing = requiredScopes.stream().filter(s -> !granted.contains(s)).toList();
        if (!missing.isEmpty()) {
            return new Challenged(403, "Bearer error=\"insufficient_scope\", scope=\"" + String.join(" ", requiredScopes)
                    + "\", resource_metadata=\"" + metadataUrl.get() + "\"",
                    "Forbidden: the token lacks the scope " + String.join(" ", missing));
        }
        return new Admitted(found.caller());
    }

    /**
     * Whether an admitted caller may use the endpoint of a tenant: an authenticated caller only its
     * own tenant's (403 otherwise, the token is for another tenant); the unauthenticated local caller
     * any.
     */
    Verdict place(CallerIdentity caller, String pathTenant, String requestUri, Supplier<String> metadataUrl) {
        if (!caller.authenticated() || caller.tenant().equals(pathTenant)) {
            return new Admitted(caller);
        }
        refusals.warn("requests were refused for naming another tenant than their token's (the last: {})",
                caller.subject() + " of tenant " + caller.tenant() + " at " + requestUri);
        return new Challenged(403, "Bearer error=\"insufficient_scope\", error_description=\"The access token is not"
                + " for this tenant\", resource_metadata=\"" + metadataUrl.get() + "\"",
                "Forbidden: the token is for tenant " + caller.tenant() + ", not " + pathTenant);
    }

    /** The token of an {@code Authorization: Bearer} header, or null. */
    static String bearer(String header) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        if (h.length() <= 7 || !h.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return null;
        }
        String token = h.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    /**
     * The resource an endpoint path is: the configured URL, else the URL the client used (its scheme
     * and Host header) with that path. A tenant's endpoint is the configured URL with the tenant's path
     * in place of the default endpoint's ({@code https://mcp.example.com/mcp} gives
     * {@code https://mcp.example.com/t/acme/mcp}).
     */
    String resource(HttpServletRequest req, String path) {
        String host = req.getHeader("Host");
        return resource(req.getScheme(), host == null ? req.getServerName() + ":" + req.getServerPort() : host, path);
    }

    /** The same from a request's parts: its scheme, its Host header (else the server's name and port), its path. */
    String resource(String scheme, String authority, String path) {
        String configured = resourceUrl;
        if (!configured.isEmpty()) {
            String endpoint = endpointPath;
            if (!path.equals(endpoint) && configured.endsWith(endpoint)) {
                return configured.substring(0, configured.length() - endpoint.length()) + path;
            }
            return configured;
        }
        return scheme + "://" + authority + path;
    }

    /** RFC 9728: the well-known path inserted between the resource's authority and its path. */
    static String metadataUrl(String resourceUrl) {
        URI resource = URI.create(resourceUrl);
        String path = resource.getRawPath() == null || resource.getRawPath().equals("/") ? "" : resource.getRawPath();
        return resource.getScheme() + "://" + resource.getRawAuthority() + METADATA_PATH + path;
    }

    /** The scopes named in the metadata. */
    Set<String> requiredScopes() {
        return Set.copyOf(requiredScopes);
    }
}
