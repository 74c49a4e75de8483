package io.quiver.permissions.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.Target;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
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
 * One grant, as a factory configuration ({@code etc/io.quiver.permissions.grant-<name>.cfg}): who it
 * applies to (subjects, roles, tenants, projects) and what it allows and denies. The service type is private to
 * this bundle, so no other bundle can add a grant; only a file in {@code etc/} can.
 *
 * <p>A grant with a bad pattern allows nothing (its denials still apply) and is listed as a problem:
 * a typo must not widen anyone's rights.
 */
@Component(service = {Grant.class, ProblemSource.class}, configurationPid = Grant.FACTORY_PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true)
@Designate(ocd = Grant.Config.class, factory = true)
public final class Grant implements ProblemSource {

    static final String FACTORY_PID = "io.quiver.permissions.grant";

    @ObjectClassDefinition(name = "Quiver permission grant",
            description = "Who may see and use which tools, resources and prompts. Patterns are [kind:]glob, kind one"
                    + " of tool, resource, template, prompt; * any characters, ? one. Deny wins over allow.")
    public @interface Config {

        @AttributeDefinition(description = "Subjects the grant applies to (globs); with roles empty too: everyone")
        String[] subjects() default {};

        @AttributeDefinition(description = "Roles the grant applies to: a caller with any of them")
        String[] roles() default {};

        @AttributeDefinition(description = "Tenants the grant applies in (globs)")
        String[] tenants() default {"*"};

        @AttributeDefinition(description = "Projects the grant applies in (globs over the endpoint's projectId; * also"
                + " matches a caller in no project)")
        String[] projects() default {"*"};

        @AttributeDefinition(description = "What the grant lets its callers see and use")
        String[] allow() default {};

        @AttributeDefinition(description = "What the grant's callers may not see nor use, whatever else allows it")
        String[] deny() default {};
    }

    private static final Logger LOG = LoggerFactory.getLogger(Grant.class);
    /** What a grant with a problem does meanwhile. */
    private static final String NOTHING = "; this grant allows nothing until it is fixed";

    /** A grant as read: its patterns, and what was wrong with the file. */
    private record Rules(String name, List<Pattern> subjects, List<String> roles,
            List<Pattern> tenants, List<Pattern> projects,
            List<TargetPattern> allow, List<TargetPattern> deny, List<Problem> problems) {
    }

    private volatile Rules rules;

    @Activate
    public Grant(Map<String, Object> properties) {
        modified(properties);
    }

    /** An edited file applies in place, to the next decision. */
    @Modified
    void modified(Map<String, Object> properties) {
        Rules read = read(properties);
        read.problems().forEach(p -> LOG.warn("{}", p));
        rules = read;
        Runnable listener = onChange;
        if (listener != null) {
            listener.run();
        }
    }

    /** Who hears that this grant's rules changed (the policy), or null. */
    private volatile Runnable onChange;

    void onChange(Runnable listener) {
        onChange = listener;
    }

    String name() {
        return rules.name();
    }

    /** Whether this grant speaks about the caller. */
    boolean appliesTo(CallerIdentity caller) {
        Rules r = rules;
        if (r.tenants().stream().noneMatch(t -> t.matcher(caller.tenant()).matches())) {
            return false;
        }
        String project = caller.project() == null ? "" : caller.project();
        if (r.projects().stream().noneMatch(p -> p.matcher(project).matches())) {
            return false;
        }
        if (r.subjects().isEmpty() && r.roles().isEmpty()) {
            return true;
        }
        return r.subjects().stream().anyMatch(s -> s.matcher(caller.subject()).matches())
                || r.roles().stream().anyMatch(caller.roles()::contains);
    }

    /** The deny pattern that matches, or null. */
    TargetPattern denies(Target target) {
        return rules.deny().stream().filter(p -> p.matches(target)).findFirst().orElse(null);
    }

    /** The allow pattern that matches, or null (always null while the grant has problems). */
    TargetPattern allows(Target target) {
        Rules r = rules;
        if (!r.problems().isEmpty()) {
            return null;
        }
        return r.allow().stream().filter(p -> p.matches(target)).findFirst().orElse(null);
    }

    @Override
    public List<Problem> problems() {
        return rules.problems();
    }

    private static Rules read(Map<String, Object> properties) {
        String source = TypedConfig.source(properties);
        Config c = TypedConfig.read(Config.class, properties, null).config();
        List<Problem> problems = new ArrayList<>();
        List<TargetPattern> allow = TargetPattern.parseAll(c.allow(), "allow", source, NOTHING, problems);
        List<TargetPattern> deny = TargetPattern.parseAll(c.deny(), "deny", source, NOTHING, problems);
        List<String> tenants = TypedConfig.list(c.tenants());
        List<String> projects = TypedConfig.list(c.projects());
        return new Rules(TypedConfig.factoryName(properties, FACTORY_PID), globs(TypedConfig.list(c.subjects())),
                TypedConfig.list(c.roles()), globs(tenants.isEmpty() ? List.of("*") : tenants),
                globs(projects.isEmpty() ? List.of("*") : projects), allow, deny,
                List.copyOf(problems));
    }

    private static List<Pattern> globs(List<String> texts) {
        return texts.stream().map(TypedConfig::glob).toList();
    }
}
