package io.quiver.tools.command.internal;

import io.quiver.api.Tool;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import io.quiver.lib.external.ProcessTree;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code etc/io.quiver.tools.command-NAME.cfg}: registers its {@link CommandTool} as a {@link Tool}
 * service, or, when the configuration is not valid, no tool and the reasons as problems
 * ({@code quiver:problems}, {@code problems_list}). Without such a file nothing runs: commands stay off
 * until configured.
 *
 * <p>An edited file replaces the tool; runs already going finish under the old configuration (each is
 * bounded by its timeout). A deleted file, or the bundle stopping, stops the tool's running processes
 * with everything they started.
 */
@Component(service = ProblemSource.class, configurationPid = CommandConfig.PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true)
@Designate(ocd = CommandConfig.class, factory = true)
public final class CommandToolComponent implements ProblemSource {

    private static final Logger LOG = LoggerFactory.getLogger(CommandToolComponent.class);
    /** Whether it was logged that commands start without a session of their own. */
    private static final AtomicBoolean TOLD = new AtomicBoolean();
    /** {@code ComponentConstants.DEACTIVATION_REASON_CONFIGURATION_MODIFIED}: the file was edited. */
    static final int CONFIGURATION_MODIFIED = 3;

    private final List<Problem> problems;
    private final Runs runs = new Runs();
    private final ServiceRegistration<Tool> registration;

    @Activate
    public CommandToolComponent(BundleContext context, Map<String, Object> properties) {
        CommandSpec.Read read = CommandSpec.read(properties, Path.of("").toAbsolutePath());
        String source = TypedConfig.source(properties);
        this.problems = read.problems().stream().map(reason -> new Problem(source, reason)).toList();
        problems.forEach(p -> LOG.error("{}: {}; the command tool is not offered", p.subject(), p.reason()));
        CommandSpec spec = read.spec();
        if (spec != null && spec.enabled()) {
            registration = context.registerService(Tool.class, new CommandTool(spec, runs), spec.serviceProperties());
            LOG.info("Command tool {} offered ({}, {})", spec.name(), spec.programName(), source);
            if (!ProcessTree.sessions() && TOLD.compareAndSet(false, true)) {
                LOG.info("Command tools start without a session of their own (that needs Linux and util-linux's"
                        + " setsid on the PATH): a process a command detaches by a double fork is not stopped with it");
            }
        } else {
            registration = null;
            if (spec != null) {
                LOG.info("Command tool {} is declared but not enabled ({})", spec.name(), source);
            }
        }
    }

    @Deactivate
    void deactivate(int reason) {
        if (registration != null) {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // the bundle is stopping: already gone
            }
        }
        if (reason != CONFIGURATION_MODIFIED) {
            runs.close();
        }
    }

    @Override
    public List<Problem> problems() {
        return problems;
    }
}
