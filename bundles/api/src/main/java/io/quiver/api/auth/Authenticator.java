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

    /**
     * Whether {@link #authenticate} never waits: no network, no file, no lock held for long (an API key
     * looked up in memory, a JWT checked against keys already in memory). When every registered
     * authenticator says so, the HTTP transport checks a request's credential on the thread that read
     * it (its selector lane) and serves the request there when the rest of its work waits on nothing
     * too; otherwise every request that carries a credential starts on a pool thread. A wrong
     * {@code true} stalls every connection that thread reads while a check waits.
     *
     * @return {@code false} unless the implementation is sure (the default)
     * @since 1.1
     */
    default boolean waitsOnNothing() {
        return false;
    }
}
