package io.quiver.auth.jwt.internal;

import static io.quiver.auth.jwt.internal.Tokens.SECRET;
import static io.quiver.auth.jwt.internal.Tokens.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import io.quiver.api.auth.Authentication;
import java.time.Instant;
import java.util.Date;
import org.junit.jupiter.api.Test;

/**
 * Accepted tokens are remembered (their signature is not checked on every request), never beyond their
 * own expiry nor across a change of configuration.
 */
class RememberedTokensTest {

    @Test
    void aRememberedTokenStillExpiresAtItsExp() throws Exception {
        JwtAuthenticator authenticator = new JwtAuthenticator(config("hmacSecret", SECRET, "clockSkewSeconds", "0"));
        try {
            String token = Tokens.sign(JWSAlgorithm.HS256, Tokens.claims()
                    .expirationTime(Date.from(Instant.now().plusMillis(1500))).build(), Tokens.hmac(SECRET));
            assertTrue(authenticator.authenticate(token).accepted());
            assertTrue(authenticator.authenticate(token).accepted(), "remembered");
            Thread.sleep(2000);
            Authentication late = authenticator.authenticate(token);
            assertEquals(Authentication.Status.REFUSED, late.status(), "remembered only until its exp");
        } finally {
            authenticator.deactivate();
        }
    }

    @Test
    void aNewConfigurationForgetsWhatTheOldOneAccepted() {
        JwtAuthenticator authenticator = new JwtAuthenticator(config("hmacSecret", SECRET));
        try {
            String token = Tokens.sign(JWSAlgorithm.HS256, Tokens.claims().build(), Tokens.hmac(SECRET));
            assertTrue(authenticator.authenticate(token).accepted());
            authenticator.modified(config("hmacSecret", SECRET, "issuer", "https://another.example.com"));
            assertFalse(authenticator.authenticate(token).accepted(), "checked again under the new issuer");
        } finally {
            authenticator.deactivate();
        }
    }

    @Test
    void theSameTokenIsTheSameCallerFromMemory() {
        JwtAuthenticator authenticator = new JwtAuthenticator(config("hmacSecret", SECRET));
        try {
            String token = Tokens.sign(JWSAlgorithm.HS256, Tokens.claims().claim("roles", "dev").build(),
                    Tokens.hmac(SECRET));
            Authentication first = authenticator.authenticate(token);
            Authentication again = authenticator.authenticate(token);
            assertEquals(first, again);
            assertEquals("alice", again.caller().subject());
        } finally {
            authenticator.deactivate();
        }
    }
}
