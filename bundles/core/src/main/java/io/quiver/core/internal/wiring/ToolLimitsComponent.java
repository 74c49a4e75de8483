package io.quiver.core.internal.wiring;

import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.core.internal.pipeline.ToolLimits;
import io.quiver.lib.config.Min;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * One tool's limits, as a factory configuration ({@code etc/io.quiver.core.tool-<name>.cfg}). The
 * engine picks every instance up; an edit applies at once, and a value that is not valid keeps the
 * last good one and is listed as a problem.
 */
@Component(service = {ToolLimitsComponent.class, ProblemSource.class}, configurationPid = "io.quiver.core.tool",
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = ToolLimitsComponent.Config.class, factory = true)
public final class ToolLimitsComponent implements ProblemSource {

    /** Limits of one tool. */
    @ObjectClassDefinition(name = "Quiver tool limits", description = "Timeout, concurrency and output limits of one tool")
    public @interface Config {
        @AttributeDefinition(description = "The tool name")
        String tool();

        @AttributeDefinition(description = "Per-attempt timeout (ms); 0 keeps the default")
        @Min(0)
        long timeoutMs() default 0;

        @AttributeDefinition(description = "Calls of this tool running at once; 0 takes its share of the server's"
                + " (toolSharePercent of maxConcurrentCalls)")
        @Min(0)
        int maxConcurrentCalls() default 0;

        @AttributeDefinition(description = "Most bytes of output; 0 keeps the server's limit")
        @Min(0)
        long maxOutputBytes() default 0;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ToolLimitsComponent.class);

    private volatile Config config;
    private volatile List<Problem> problems = List.of();

    @Activate
    public ToolLimitsComponent(Map<String, Object> properties) {
        modified(properties);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        TypedConfig.Result<Config> result = TypedConfig.read(Config.class, properties, config);
        List<Problem> found = new ArrayList<>(result.problems().stream().map(p -> new Problem(p.source(), p.reason())).toList());
        if (properties.get("tool") != null && result.config().tool().isBlank()) {
            // given, but empty (a missing one is said by the reading itself)
            found.add(new Problem(TypedConfig.source(properties), "tool is empty: these limits apply to no tool"));
        }
        found.stream().filter(p -> !problems.contains(p)).forEach(p -> LOG.warn("{}", p));
        problems = List.copyOf(found);
        config = result.config();
    }

    public ToolLimits limits() {
        Config c = config;
        return new ToolLimits(c.tool().trim(), c.timeoutMs(), c.maxConcurrentCalls(), c.maxOutputBytes());
    }

    @Override
    public List<Problem> problems() {
        return problems;
    }
}
