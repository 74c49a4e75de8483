package io.quiver.auth.apikeys.internal;

import io.quiver.api.auth.Authentication;
import io.quiver.api.auth.Authenticator;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * Accepts the API keys configured as {@link ApiKey} configurations: tokens that start with
 * {@code qvk_}; any other token is another authenticator's (a JWT's, say).
 *
 * <p>This service exists only while at least one key is configured: the HTTP transport requires a
 * credential whenever an authenticator is registered, so a server without keys stays as open as it
 * was. A key configuration with problems still counts: a typo in the only key file must lock the
 * server, not open it.
 */
@Component(service = Authenticator.class)
public final class ApiKeyAuthenticator implements Authenticator {

    private final Set<KeyEntry> keys = new CopyOnWriteArraySet<>();
    private final Clock clock;

    public ApiKeyAuthenticator() {
        this(Clock.systemUTC());
    }

    ApiKeyAuthenticator(Clock clock) {
        this.clock = clock;
    }

    /** A key configured; dynamic, so adding or revoking one never takes the authenticator away. */
    @Reference(cardinality = ReferenceCardinality.AT_LEAST_ONE, policy = ReferencePolicy.DYNAMIC,
            unbind = "removeKey")
    void addKey(KeyEntry key) {
        keys.add(key);
    }

    /** A key revoked (its file deleted): from now on it is unknown. */
    void removeKey(KeyEntry key) {
        keys.remove(key);
    }

    /** A hash and a look-up in memory: checked on the thread that read the request. */
    @Override
    public boolean waitsOnNothing() {
        return true;
    }

    @Override
    public Authentication authenticate(String token) {
        if (!token.startsWith(KeyHash.PREFIX)) {
            return Authentication.notMine();
        }
        if (!KeyHash.isWellFormed(token)) {
            return Authentication.refused("malformed API key (expected qvk_ and 43 base64url characters)");
        }
        byte[] digest = KeyHash.digest(token);
        Instant now = clock.instant();
        List<String> names = new ArrayList<>();
        Authentication found = null;
        for (KeyEntry key : keys) {
            Optional<Authentication> result = key.check(digest, now);
            if (result.isPresent()) {
                names.add(key.name());
                found = result.get();
            }
        }
        if (found == null) {
            return Authentication.refused("unknown API key (never configured, or revoked)");
        }
        if (names.size() > 1) {
            // which of them would be a matter of chance: refuse until the copy is gone
            return Authentication.refused("API key configured more than once (" + String.join(", ", names)
                    + "); keep one file per key");
        }
        return found;
    }
}
