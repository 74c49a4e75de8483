package io.quiver.auth.jwt.internal;

import io.quiver.api.auth.Authentication;
import io.quiver.api.auth.Authenticator;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.net.ssl.SSLSocketFactory;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer JWT access tokens (PID {@code io.quiver.auth.jwt}), verified with Nimbus JOSE+JWT against the
 * configured issuer, audience and keys. Exists only while {@code etc/io.quiver.auth.jwt.cfg} does.
 *
 * <p>A configuration that cannot be used (no issuer, no audience, no key, a short secret, an unreadable key
 * file) does not stop the component: it stays registered and refuses every token, with the reason in the
 * log and in {@code quiver:problems}. Were it to fail instead, no authenticator might be registered, and the
 * transport could then serve without authentication: a typo must lock the server, not open it.
 */
@Component(configurationPid = JwtAuthenticator.PID, configurationPolicy = ConfigurationPolicy.REQUIRE,
        service = {Authenticator.class, ProblemSource.class})
@Designate(ocd = JwtConfig.class)
public final class JwtAuthenticator implements Authenticator, ProblemSource {

    static final String PID = "io.quiver.auth.jwt";

    private static final Logger LOG = LoggerFactory.getLogger(JwtAuthenticator.class);
    /** A JWS in compact form: three base64url parts (the last empty when unsigned). */
    private static final Pattern COMPACT = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");

    private final SSLSocketFactory tls;
    private JwtConfig config;
    private volatile State state = new State(null, "JWT authentication is starting", true);
    private volatile List<Problem> problems = List.of();

    /** The check in use, or why there is none. */
    private record State(TokenCheck check, String refusal, boolean localKeys) {
    }

    @Activate
    public JwtAuthenticator(Map<String, Object> properties) {
        this(properties, null);
    }

    /** @param tls the TLS sockets for the JWKS URL (tests); null for the JVM's default trust */
    JwtAuthenticator(Map<String, Object> properties, SSLSocketFactory tls) {
        this.tls = tls;
        apply(properties);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        apply(properties);
    }

    @Deactivate
    synchronized void deactivate() {
        State old = state;
        state = new State(null, "JWT authentication has stopped", true);
        if (old.check() != null) {
            old.check().close();
        }
    }

    @Override
    public Authentication authenticate(String token) {
        if (token == null || !COMPACT.matcher(token).matches()) {
            return Authentication.notMine(); // an API key, say: another authenticator's
        }
        State s = state;
        return s.check() != null ? s.check().check(token) : Authentication.refused(s.refusal());
    }

    /**
     * True while the keys are all local (PEM, JWKS file, HMAC secret); with a {@code jwksUrl}, a token
     * whose kid is not in the cached set makes Nimbus fetch the set again, so checks may wait.
     */
    @Override
    public boolean waitsOnNothing() {
        return state.localKeys();
    }

    @Override
    public List<Problem> problems() {
        return problems;
    }

    /** Builds the check of a configuration and puts it in place of the last one. */
    private synchronized void apply(Map<String, Object> properties) {
        String source = TypedConfig.source(properties);
        List<String> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        TokenCheck next;
        try {
            next = build(properties, errors, warnings);
        } catch (RuntimeException e) {
            // whatever it was, the server stays locked: a component that failed might leave it open
            LOG.error("{}: the JWT configuration could not be applied", source, e);
            errors.add("the configuration could not be applied: " + e);
            next = null;
        }
        State old = state;
        // without a jwksUrl every key is in memory: a check never waits (a refusal never does either)
        state = next != null ? new State(next, null, config == null || config.jwksUrl().isBlank())
                : new State(null, "JWT authentication is not usable until " + source + " is fixed: " + errors.get(0), true);
        if (old.check() != null) {
            old.check().close();
        }

        List<Problem> found = new ArrayList<>();
        errors.forEach(e -> found.add(new Problem(source, e + "; every JWT is refused")));
        warnings.forEach(w -> found.add(new Problem(source, w)));
        problems = List.copyOf(found);
        warnings.forEach(w -> LOG.warn("{}: {}", source, w));
        if (next == null) {
            LOG.error("{}: JWT authentication refuses every token until this is fixed: {}", source,
                    String.join("; ", errors));
        }
    }

    /** The check of a configuration, or null when it has errors. */
    private TokenCheck build(Map<String, Object> properties, List<String> errors, List<String> warnings) {
        TypedConfig.Result<JwtConfig> read = TypedConfig.read(JwtConfig.class, properties, config);
        JwtConfig c = read.config();
        config = c;
        for (TypedConfig.Problem p : read.problems()) {
            // a bad value keeps the last good one; the required settings (issuer, audience) are checked below
            if (p.value() != null) {
                // the value, and the one kept, of a secret are never shown
                warnings.add(p.key().equals("hmacSecret") ? "hmacSecret is not one text; the last good one is kept"
                        : p.reason());
            }
        }
        String issuer = c.issuer().trim();
        List<String> audience = TypedConfig.list(c.audience());
        if (issuer.isEmpty()) {
            errors.add("issuer is not set: the authorization server's issuer identifier, which the iss claim of its"
                    + " tokens must equal (e.g. issuer = https://login.example.com/realms/main)");
        }
        if (audience.isEmpty()) {
            errors.add("audience is not set: this server's resource URL, which the aud claim of its tokens must name"
                    + " (e.g. audience = https://mcp.example.com/mcp); without it a token issued for any other"
                    + " service would do");
        }
        for (String[] claim : new String[][] {{"subjectClaim", c.subjectClaim()}, {"tenantClaim", c.tenantClaim()},
                {"rolesClaim", c.rolesClaim()}, {"scopeClaim", c.scopeClaim()}}) {
            if (claim[1].isBlank()) {
                errors.add(claim[0] + " is empty");
            }
        }
        KeyLoader.Loaded keys = KeyLoader.load(c, tls, errors, warnings::add);
        if (!errors.isEmpty()) {
            if (keys != null) {
                KeyLoader.close(keys.selector());
            }
            return null;
        }
        List<String> required = TypedConfig.list(c.requiredClaims());
        TokenCheck check = new TokenCheck(keys.selector(),
                new ClaimsPolicy(issuer, new LinkedHashSet<>(audience), c.clockSkewSeconds(), required),
                new Identities(c.subjectClaim().trim(), c.subjectPrefix().trim(), c.tenantClaim().trim(),
                        c.rolesClaim().trim(), c.scopeClaim().trim()),
                c.jwksMinRefreshSeconds());
        LOG.info("JWT authentication: issuer {}, audience {}, keys {}, algorithms {}, clock skew {} s{}", issuer,
                audience, String.join("; ", keys.sources()), Algorithms.names(keys.selector().algorithms()),
                c.clockSkewSeconds(), required.isEmpty() ? "" : ", required claims " + required);
        return check;
    }
}
