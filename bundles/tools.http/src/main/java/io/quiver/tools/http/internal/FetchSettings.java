package io.quiver.tools.http.internal;

import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.ComponentContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch tool's settings ({@code etc/io.quiver.tools.http.cfg}), read as a {@link FetchConfig} and kept as
 * the {@link Policy} in force. It decides whether the tool exists: the {@link FetchTool} component is
 * disabled until a host is allowed, and disabled again when none is, so a server that allows nothing lists
 * no tool that could only fail. Settings that are not valid are listed as problems
 * ({@code quiver:problems}, {@code problems_list}) and logged once.
 */
@Component(service = {FetchSettings.class, ProblemSource.class}, configurationPid = FetchConfig.PID, immediate = true)
@Designate(ocd = FetchConfig.class)
public final class FetchSettings implements ProblemSource {

    private static final Logger LOG = LoggerFactory.getLogger(FetchSettings.class);

    private final ComponentContext context;
    private volatile FetchConfig config;
    private volatile Policy policy;
    private volatile List<Problem> problems = List.of();
    private boolean toolEnabled;

    @Activate
    public FetchSettings(ComponentContext context, Map<String, Object> properties) {
        this.context = context;
        apply(properties);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        apply(properties);
    }

    @Deactivate
    synchronized void deactivate() {
        toolEnabled = false; // SCR disables the bundle's components itself
    }

    /** The policy in force. */
    Policy policy() {
        return policy;
    }

    @Override
    public List<Problem> problems() {
        return problems;
    }

    private synchronized void apply(Map<String, Object> properties) {
        TypedConfig.Result<FetchConfig> read = TypedConfig.read(FetchConfig.class, properties, config);
        config = read.config();
        Policy next = Policy.of(config);
        String source = TypedConfig.source(properties);
        List<Problem> found = new ArrayList<>();
        read.problems().forEach(p -> found.add(new Problem(p.source(), p.reason())));
        next.problems().forEach(p -> found.add(new Problem(source, p)));
        found.stream().filter(p -> !problems.contains(p)).forEach(p -> LOG.warn("{}", p));
        problems = List.copyOf(found);
        policy = next;
        if (next.enabled() != toolEnabled) {
            toolEnabled = next.enabled();
            if (toolEnabled) {
                LOG.info("fetch: on for {}", next.hostsText());
                context.enableComponent(FetchTool.class.getName());
            } else {
                LOG.info("fetch: off, no host is allowed ({})", source);
                context.disableComponent(FetchTool.class.getName());
            }
        } else if (toolEnabled) {
            LOG.info("fetch: settings changed, allowed hosts: {}", next.hostsText());
        }
    }
}
