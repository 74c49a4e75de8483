package io.quiver.core.internal.catalog;

import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scope rule, as a factory configuration ({@code etc/io.quiver.scope-<name>.cfg}): the tools,
 * resources and prompts of the named bundles (or with the named names) are visible only in the
 * given tenants, or projects of them. The operator scopes bundles this way without rebuilding
 * them; a service's own {@code mcp.tenant} property wins over every rule. The service type is
 * private to the core bundle, so only a file in {@code etc/} makes one.
 *
 * <p>An edit re-creates the rule (the catalog places every entry again). A rule that is not valid
 * hides what it matches everywhere rather than leave it visible to every tenant, and is listed as
 * a problem.
 */
@Component(service = {ScopeRule.class, ProblemSource.class}, configurationPid = ScopeRule.FACTORY_PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true)
@Designate(ocd = ScopeRule.Config.class, factory = true)
public final class ScopeRule implements ProblemSource {

    static final String FACTORY_PID = "io.quiver.scope";

    @ObjectClassDefinition(name = "Quiver catalog scope",
            description = "Makes tools, resources and prompts visible only to some tenants or projects. Globs: * any"
                    + " characters, ? one.")
    public @interface Config {

        @AttributeDefinition(description = "Tenants that see what the rule matches (names, not globs)")
        String[] tenants() default {};

        @AttributeDefinition(description = "Projects of those tenants that see it (names); empty: the tenants as a whole")
        String[] projects() default {};

        @AttributeDefinition(description = "Symbolic names of the bundles whose services the rule scopes (globs)")
        String[] bundles() default {};

        @AttributeDefinition(description = "Names the rule scopes (tool and prompt names, resource URIs; globs); with"
                + " bundles too, both must match")
        String[] names() default {};
    }

    private static final Logger LOG = LoggerFactory.getLogger(ScopeRule.class);

    private final String name;
    private final Set<Scope> scopes;
    private final List<Pattern> bundles;
    private final List<Pattern> names;
    private final List<Problem> problems;

    @Activate
    public ScopeRule(Map<String, Object> properties) {
        String source = TypedConfig.source(properties);
        Config c = TypedConfig.read(Config.class, properties, null).config();
        List<Problem> found = new ArrayList<>();
        this.name = TypedConfig.factoryName(properties, FACTORY_PID);
        this.bundles = TypedConfig.list(c.bundles()).stream().map(TypedConfig::glob).toList();
        this.names = TypedConfig.list(c.names()).stream().map(TypedConfig::glob).toList();
        if (bundles.isEmpty() && names.isEmpty()) {
            found.add(new Problem(source, "names no bundles and no names: it scopes nothing"));
        }
        List<String> tenants = TypedConfig.list(c.tenants());
        Set<Scope> places = Set.of();
        if (tenants.isEmpty()) {
            found.add(new Problem(source, "names no tenants; what it matches is hidden until it does"));
        } else {
            try {
                places = Scope.of(tenants, TypedConfig.list(c.projects()));
            } catch (IllegalArgumentException e) {
                found.add(new Problem(source, e.getMessage() + "; what the rule matches is hidden until it is fixed"));
            }
        }
        this.scopes = found.isEmpty() ? places : Set.of();
        this.problems = List.copyOf(found);
        problems.forEach(p -> LOG.warn("{}", p));
    }

    /** Whether the rule speaks about an entry of the given bundle (symbolic name) and name. */
    boolean matches(String bundle, String entryName) {
        if (bundles.isEmpty() && names.isEmpty()) {
            return false;
        }
        return (bundles.isEmpty() || bundle != null && bundles.stream().anyMatch(p -> p.matcher(bundle).matches()))
                && (names.isEmpty() || names.stream().anyMatch(p -> p.matcher(entryName).matches()));
    }

    /** Where what the rule matches is visible; empty (nowhere) while the rule has problems. */
    Set<Scope> scopes() {
        return scopes;
    }

    String name() {
        return name;
    }

    @Override
    public List<Problem> problems() {
        return problems;
    }
}
