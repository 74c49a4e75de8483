package io.quiver.api.auth;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Checks one kind of bearer credential (signed JWT access tokens, API keys, ...). Registered as a
 * service; the transport asks each registered authenticator in turn (highest ranking first) until
 * one does not {@linkplain Authentication#notMine() pass}. Called on every HTTP request: keep it
 * fast; anything fetched over the network (a JWKS) is cached.
 *
 * <p>The token is a secret: an authenticator never logs it nor puts it in a reason.
 */
@ConsumerType
public interface Authenticator {

    /**
     * @param token the credential after {@code Bearer }, never null or blank
     * @return who the token proves, a refusal with a reason for the log, or
     *     {@link Authentication#notMine()} when this authenticator does not handle tokens of this form
     */
    Authentication authenticate(String token);
}
