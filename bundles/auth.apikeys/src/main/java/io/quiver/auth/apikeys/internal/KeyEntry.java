package io.quiver.auth.apikeys.internal;

import io.quiver.api.auth.Authentication;
import java.time.Instant;
import java.util.Optional;

/**
 * One configured API key as {@link ApiKeyAuthenticator} sees it; every {@link ApiKey} component registers
 * one. The package is not exported, so no other bundle can load this type, and the framework hands
 * the authenticator only services of its own copy: keys come from configurations, never from code
 * elsewhere.
 */
public interface KeyEntry {

    /** The configuration's name for messages ({@code ci-bot} for {@code etc/io.quiver.auth.apikey-ci-bot.cfg}). */
    String name();

    /**
     * What this entry makes of a key.
     *
     * @param digest the SHA-256 of the key presented
     * @param now the time of the request
     * @return empty when the key is not this entry's; else accepted, or refused (expired, or this
     *     entry's configuration has problems)
     */
    Optional<Authentication> check(byte[] digest, Instant now);
}
