package io.quiver.permissions.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallPolicy;
import io.quiver.api.call.Decision;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Target;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The call policy from server configuration: the grants in {@code etc/} ({@link Grant}) and the
 * admin-only targets of {@code etc/io.quiver.permissions.cfg}. One decision serves every list and
 * every use (the engine asks it for both), so a caller never sees what it cannot use.
 *
 * <ol>
 * <li>An admin-only target (the admin tools by default) needs the admin role from an authenticated
 * caller. The unauthenticated local caller (loopback without authentication, the operator's own
 * machine) is the operator and keeps it.</li>
 * <li>A target that needs a host's approval ({@code hostApproval}) is refused while no
 * {@link HostChannel} is in force: listed, but a call is answered that it needs a host application's
 * approval and was not run (without an embedding host there is no one to approve it, and no terminal
 * never means unattended execution). With one, the host is asked before every call anyway.</li>
 * <li>A deny of any grant that applies to the caller wins.</li>
 * <li>A pattern of this file that cannot be read (one that names nothing, a value of the wrong type) is a problem
 * ({@code problems_list}, the log): while there is one, nothing is allowed to anyone, since what it was meant to
 * close cannot be known.</li>
 * <li>Without any grant configured, everything else is allowed (as without this bundle). With grants,
 * what no applicable grant allows is denied.</li>
 * </ol>
 * Grants are private services of this bundle: only files in {@code etc/} make them, never a tool or
 * another bundle. Changes apply to the next decision; a call already running is not stopped.
 */
@Component(service = {CallPolicy.class, ProblemSource.class}, configurationPid = PermissionPolicy.PID, immediate = true)
@Designate(ocd = PermissionPolicy.Config.class)
public final class PermissionPolicy implements CallPolicy, ProblemSource {

    private static final Logger LOG = LoggerFactory.getLogger(PermissionPolicy.class);
    /** What a problem of this file means meanwhile. */
    private static final String NOTHING = "; nothing is allowed until it is fixed";

    static final String PID = "io.quiver.permissions";

    @ObjectClassDefinition(name = "Quiver permissions",
            description = "Targets only administrators may see and use; the grants are io.quiver.permissions.grant-NAME files")
    public @interface Config {

        @AttributeDefinition(description = "Patterns ([kind:]glob) of what needs the admin role from an authenticated caller")
        String[] adminOnly() default {"tool:bundle_install", "tool:bundle_uninstall", "tool:bundles_list",
            "tool:problems_list", "tool:upstreams_list", "tool:transports_status"};

        @AttributeDefinition(description = "The role that administers the server")
        String adminRole() default "admin";

        @AttributeDefinition(description = "Tenants (globs) whose callers with the admin role administer the server;"
                + " the admin tools install code that reaches every tenant, so by default only the server's own"
                + " (default) tenant's administrators may use them")
        String[] adminTenants() default {"default"};

        @AttributeDefinition(description = "Patterns ([kind:]glob) of what may be used only with a host application's"
                + " approval: while no host channel is in force (an embedding host that decides), listed but every use is"
                + " refused with a message saying so")
        String[] hostApproval() default {};
    }

    /**
     * @param problems what could not be read: while there is any, nothing is allowed (a pattern that names nothing
     *     would otherwise leave open what it was meant to close)
     */
    private record Settings(List<TargetPattern> adminOnly, String adminRole, List<Pattern> adminTenants,
            List<TargetPattern> hostApproval, List<Problem> problems) {

        /** Whether an authenticated caller administers the server: the admin role, in one of the admin tenants. */
        boolean administers(CallerIdentity caller) {
            return caller.roles().contains(adminRole)
                    && adminTenants.stream().anyMatch(t -> t.matcher(caller.tenant()).matches());
        }
    }

    /** The engine's bundle, the one whose marker says a host channel is in force. */
    static final String ENGINE = "io.quiver.core";
    /** The host channels in force now: with none, what needs a host's approval is denied. */
    private final AtomicInteger hosts = new AtomicInteger();

    private final List<Grant> grants = new CopyOnWriteArrayList<>();
    private volatile Settings settings;

    /**
     * The framework property (set by the launcher) saying how many grant files {@code etc/} held at the start: {@value}.
     * Until that many grants have arrived nothing is allowed to anyone, since a grant still on its way may be the one
     * that narrows what a caller may do (with no grant at all, everything is allowed).
     */
    static final String GRANTS_PROPERTY = "quiver.permission.grants";
    /** How long the policy waits for the grants of the start before it decides with those there: {@value} ms. */
    static final long GRANTS_WAIT_MS = 10_000;

    /** How many grants of etc/ the start counted, and how many have come. */
    private int expectedFromEtc;
    private int fromEtc;
    /** Whether nothing is allowed yet: the grants of the start are still on their way (until they came, or 10 s). */
    private volatile boolean awaiting;
    /** Said once the wait was given up, until the late grants came. */
    private volatile Problem missingGrants;
    private volatile Thread grantsWait;
    /** The property FileInstall puts on a configuration it read from a file of etc/. */
    static final String FILENAME = "felix.fileinstall.filename";

    @Activate
    public PermissionPolicy(BundleContext context, Map<String, Object> properties) {
        this.revisions = new PolicyRevision(context);
        modified(properties);
        String count = context.getProperty(GRANTS_PROPERTY);
        if (count != null && count.matches("[0-9]{1,6}")) {
            awaitGrants(Integer.parseInt(count), GRANTS_WAIT_MS);
        }
    }

    /** Without a framework: no marker (tests). */
    PermissionPolicy(Map<String, Object> properties) {
        this.revisions = null;
        modified(properties);
    }

    /**
     * Allows nothing until {@code count} grants have arrived or {@code waitMs} has passed; then the grants there decide,
     * and the ones that never came are a problem (a file of etc/ that never became a grant).
     */
    synchronized void awaitGrants(int count, long waitMs) {
        expectedFromEtc = count;
        awaiting = fromEtc < count;
        if (!awaiting) {
            return;
        }
        Thread timer = new Thread(() -> {
            try {
                Thread.sleep(waitMs);
            } catch (InterruptedException e) {
                return;
            }
            giveUpWaiting(waitMs);
        }, "quiver-grants-wait");
        timer.setDaemon(true);
        grantsWait = timer;
        timer.start();
    }

    private synchronized void giveUpWaiting(long waitMs) {
        if (!awaiting) {
            return;
        }
        awaiting = false;
        missingGrants = new Problem(GRANTS_PROPERTY, (expectedFromEtc - fromEtc) + " of the " + expectedFromEtc
                + " grant files of etc/ did not become grants within " + waitMs + " ms (nothing was allowed meanwhile);"
                + " the grants there decide. A file deleted during the start, or not readable, is one");
        LOG.error("{}", missingGrants.reason());
        changed();
    }

    /** A grant of etc/ came or went: the wait ends, and its problem goes, once all the start counted are there. */
    private synchronized void countFromEtc(int change) {
        fromEtc += change;
        if (fromEtc >= expectedFromEtc) {
            awaiting = false;
            missingGrants = null;
        }
    }

    @Modified
    void modified(Map<String, Object> properties) {
        String source = TypedConfig.source(properties);
        TypedConfig.Result<Config> read = TypedConfig.read(Config.class, properties, null);
        Config c = read.config();
        List<Problem> problems = new ArrayList<>();
        read.problems().forEach(p -> problems.add(new Problem(p.source(), p.reason() + NOTHING)));
        Settings next = new Settings(TargetPattern.parseAll(c.adminOnly(), "adminOnly", source, NOTHING, problems),
                c.adminRole().isBlank() ? "admin" : c.adminRole().trim(),
                TypedConfig.list(c.adminTenants()).stream().map(TypedConfig::glob).toList(),
                TargetPattern.parseAll(c.hostApproval(), "hostApproval", source, NOTHING, problems), List.copyOf(problems));
        next.problems().forEach(p -> LOG.error("{}", p));
        settings = next;
        changed();
    }

    @Override
    public List<Problem> problems() {
        Problem missing = missingGrants;
        if (missing == null) {
            return settings.problems();
        }
        List<Problem> all = new ArrayList<>(settings.problems());
        all.add(missing);
        return all;
    }

    /**
     * The engine's marker that a host channel is in force (not the host channel services themselves: the
     * engine ignores one from a bundle the embedder did not allow, and so must this policy). Only the
     * engine's marker counts.
     */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC, service = Object.class,
            target = "(" + HostChannel.IN_FORCE + "=true)")
    void addHost(ServiceReference<?> marker) {
        if (ENGINE.equals(marker.getBundle() == null ? null : marker.getBundle().getSymbolicName())) {
            hosts.incrementAndGet();
        }
    }

    void removeHost(ServiceReference<?> marker) {
        if (ENGINE.equals(marker.getBundle() == null ? null : marker.getBundle().getSymbolicName())) {
            hosts.decrementAndGet();
        }
    }

    /**
     * Grants come, change and go while the server runs; each time the rules change, the engine is told (through
     * {@link #revisions}), so that it tells every client its lists may have changed: a tool granted or taken away.
     */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addGrant(Grant grant, Map<String, Object> properties) {
        grants.add(grant);
        grant.onChange(this::changed);
        if (properties.get(FILENAME) != null) { // a grant of etc/, as the start counted them (not a feature's)
            countFromEtc(1);
        }
        changed();
    }

    void removeGrant(Grant grant, Map<String, Object> properties) {
        if (properties.get(FILENAME) != null) {
            countFromEtc(-1);
        }
        grants.remove(grant);
        grant.onChange(null);
        changed();
    }

    /**
     * The marker the engine follows ({@value PolicyRevision#PROPERTY}): its revision changes with every change of the
     * rules. Null without a framework (tests).
     */
    private final PolicyRevision revisions;

    private void changed() {
        if (revisions != null) {
            revisions.next();
        }
    }

    @Deactivate
    void deactivate() {
        Thread waiting = grantsWait;
        if (waiting != null) {
            waiting.interrupt();
        }
        if (revisions != null) {
            revisions.close();
        }
    }

    @Override
    public Decision decide(CallerIdentity caller, Target target) {
        if (awaiting) {
            return Decision.deny("the server is starting: its grants are not all in place yet");
        }
        Settings s = settings;
        if (!s.problems().isEmpty()) {
            return Decision.deny("the server's permission settings have a problem (" + s.problems().get(0).subject()
                    + "): nothing is allowed until it is fixed");
        }
        if (caller.authenticated() && !s.administers(caller)) {
            for (TargetPattern p : s.adminOnly()) {
                if (p.matches(target)) {
                    return Decision.deny("admin only (" + p + "): needs the role " + s.adminRole() + " in a tenant of "
                            + "adminTenants");
                }
            }
        }
        if (hosts.get() == 0) {
            for (TargetPattern p : s.hostApproval()) {
                if (p.matches(target)) {
                    return Decision.refuse("it needs the approval of a host application (" + p + "), and none is connected");
                }
            }
        }
        if (grants.isEmpty()) {
            return Decision.allow(); // no grant at all: nothing else is restricted
        }
        Grant allowedBy = null;
        TargetPattern allowing = null;
        for (Grant grant : grants) {
            if (!grant.appliesTo(caller)) {
                continue;
            }
            TargetPattern denying = grant.denies(target);
            if (denying != null) {
                return Decision.deny("denied by grant " + grant.name() + " (" + denying + ")");
            }
            if (allowedBy == null) {
                allowing = grant.allows(target);
                allowedBy = allowing == null ? null : grant;
            }
        }
        if (allowedBy != null) {
            return new Decision(true, "allowed by grant " + allowedBy.name() + " (" + allowing + ")");
        }
        return Decision.deny("no grant allows it");
    }
}
