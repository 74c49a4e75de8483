package io.quiver.auth.apikeys.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One API key, as a factory configuration ({@code etc/io.quiver.auth.apikey-<name>.cfg}, written by
 * {@code quiver apikey create}). Only the key's hash is stored. Deleting the file revokes the key: this
 * component goes away with its configuration, and with it the key.
 *
 * <p>A configuration with a missing or bad hash, subject or expiry accepts nothing and is listed as a
 * problem. Unlike other settings, a bad value does not fall back to the last good one: an operator who
 * edits a credential means the old one to stop working. Immediate, so that a bad file is reported when
 * it is read, not at the first request.
 */
@Component(service = {KeyEntry.class, ProblemSource.class}, configurationPid = ApiKey.FACTORY_PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true)
@Designate(ocd = ApiKey.Config.class, factory = true)
public final class ApiKey implements KeyEntry, ProblemSource {

    /** The factory PID: one {@code etc/io.quiver.auth.apikey-<name>.cfg} per key. */
    static final String FACTORY_PID = "io.quiver.auth.apikey";

    /** One API key of a service account. */
    @ObjectClassDefinition(name = "Quiver API key",
            description = "One API key of a service account, stored as its hash; clients send the key as "
                    + "Authorization: Bearer qvk_... Create one with: quiver apikey create --subject NAME")
    public @interface Config {

        @AttributeDefinition(description = "sha256: and the 64 lowercase hex digits of the SHA-256 of the key"
                + " (the key itself is stored nowhere)")
        String hash();

        @AttributeDefinition(description = "Who callers with this key are: the service account's id")
        String subject();

        @AttributeDefinition(description = "The tenant of the key's calls")
        String tenant() default CallerIdentity.DEFAULT_TENANT;

        @AttributeDefinition(description = "Roles granted to the key's calls, comma separated (may be empty)")
        String[] roles() default {};

        @AttributeDefinition(description = "OAuth scopes the key grants, comma separated (may be empty)")
        String[] scopes() default {};

        @AttributeDefinition(description = "When the key stops being accepted: an ISO-8601 instant"
                + " (2027-03-01T00:00:00Z) or a date (2027-03-01: the start of that day, UTC)")
        String expires();
    }

    /**
     * A configuration as read.
     *
     * @param digest the key's SHA-256, or null when the hash is not valid
     * @param expires null when not valid
     * @param problems what is wrong; the key accepts nothing unless this is empty
     */
    private record Settings(String name, String source, byte[] digest, CallerIdentity caller, Set<String> scopes,
                            Instant expires, List<Problem> problems) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(ApiKey.class);
    private static final String REFUSED = "; the key is refused until this is fixed";

    private final Clock clock;
    private volatile Settings settings;

    @Activate
    public ApiKey(Map<String, Object> properties) {
        this(properties, Clock.systemUTC());
    }

    ApiKey(Map<String, Object> properties, Clock clock) {
        this.clock = clock;
        modified(properties);
    }

    /**
     * Applies an edited file in place. Without this, SCR would deactivate and reactivate the component,
     * and if it is the only key the authenticator would go away for a moment: requests in that moment
     * would not need any credential at all.
     */
    @Modified
    void modified(Map<String, Object> properties) {
        Settings previous = settings;
        Settings s = read(properties);
        settings = s;
        List<Problem> old = previous == null ? List.of() : previous.problems();
        s.problems().stream().filter(p -> !old.contains(p)).forEach(p -> LOG.warn("{}", p));
        if (s.problems().isEmpty()) {
            if (!clock.instant().isBefore(s.expires())) {
                LOG.warn("{}: API key '{}' (subject {}) expired at {}; it is refused", s.source(), s.name(),
                        s.caller().subject(), s.expires());
            } else {
                LOG.info("API key '{}': subject {}, tenant {}, expires {}", s.name(), s.caller().subject(),
                        s.caller().tenant(), s.expires());
            }
        }
    }

    @Override
    public String name() {
        return settings.name();
    }

    @Override
    public Optional<Authentication> check(byte[] digest, Instant now) {
        Settings s = settings;
        if (s.digest() == null || !MessageDigest.isEqual(s.digest(), digest)) {
            return Optional.empty();
        }
        if (!s.problems().isEmpty()) {
            return Optional.of(Authentication.refused("API key '" + s.name()
                    + "' is not usable: its configuration has problems (" + s.source() + ")"));
        }
        if (!now.isBefore(s.expires())) {
            return Optional.of(Authentication.refused("API key '" + s.name() + "' (subject "
                    + s.caller().subject() + ") expired at " + s.expires()));
        }
        return Optional.of(Authentication.accepted(s.caller(), s.scopes()));
    }

    /** The configuration's problems, and that the key has expired once it has: the file is then due to go. */
    @Override
    public List<Problem> problems() {
        Settings s = settings;
        if (s.problems().isEmpty() && !clock.instant().isBefore(s.expires())) {
            return List.of(new Problem(s.source(), "API key '" + s.name() + "' (subject " + s.caller().subject()
                    + ") expired at " + s.expires() + " and is refused; delete this file, or create a new key"
                    + " with quiver apikey create"));
        }
        return s.problems();
    }

    // -------------------------------------------------------------------------------------------

    private static Settings read(Map<String, Object> properties) {
        String source = TypedConfig.source(properties);
        // no previous configuration: a bad value must not fall back to a good one (see the class comment)
        TypedConfig.Result<Config> result = TypedConfig.read(Config.class, properties, null);
        List<Problem> problems = new ArrayList<>();
        for (TypedConfig.Problem p : result.problems()) {
            // a value that did not convert is quoted in the reason: never quote what is in hash (a key, by mistake?)
            String reason = p.key().equals("hash") && p.value() != null ? "hash must be one value" : p.reason();
            problems.add(new Problem(source, reason + REFUSED));
        }
        Config c = result.config();

        byte[] digest = KeyHash.parse(c.hash());
        if (digest == null && !reported(result, "hash")) {
            problems.add(new Problem(source, (c.hash().trim().startsWith(KeyHash.PREFIX)
                    ? "hash holds an API key itself, not its hash: that key is no longer secret; create a new one"
                    + " with quiver apikey create and delete this file"
                    : "hash is not sha256: followed by 64 lowercase hex digits") + REFUSED));
        }
        String subject = c.subject().trim();
        if (subject.isEmpty() && !reported(result, "subject")) {
            problems.add(new Problem(source, "subject is empty" + REFUSED));
        }
        Instant expires = null;
        if (!reported(result, "expires")) {
            try {
                expires = expiry(c.expires());
            } catch (DateTimeException e) {
                problems.add(new Problem(source, "expires = " + c.expires() + " is not an ISO-8601 instant"
                        + " (2027-03-01T00:00:00Z) or date (2027-03-01)" + REFUSED));
            }
        }
        String tenant = c.tenant().isBlank() ? CallerIdentity.DEFAULT_TENANT : c.tenant().trim();
        CallerIdentity caller = new CallerIdentity(subject.isEmpty() ? "(none)" : subject, tenant,
                Set.copyOf(TypedConfig.list(c.roles())), true);
        return new Settings(name(properties), source, digest, caller, Set.copyOf(TypedConfig.list(c.scopes())), expires,
                List.copyOf(problems));
    }

    private static boolean reported(TypedConfig.Result<Config> result, String key) {
        return result.problems().stream().anyMatch(p -> p.key().equals(key));
    }

    /**
     * An ISO-8601 instant with an offset ({@code 2027-03-01T00:00:00Z}) or a date ({@code 2027-03-01}),
     * which means the start of that day in UTC.
     *
     * @throws DateTimeException when it is neither
     */
    static Instant expiry(String text) {
        String t = text.trim();
        if (t.contains("T")) {
            return OffsetDateTime.parse(t).toInstant();
        }
        return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
    }


    /** The configuration's name: {@code ci-bot} for the file {@code io.quiver.auth.apikey-ci-bot.cfg}. */
    static String name(Map<String, ?> properties) {
        return TypedConfig.factoryName(properties, FACTORY_PID);
    }
}
