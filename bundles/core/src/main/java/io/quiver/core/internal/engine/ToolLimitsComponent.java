package io.quiver.core.internal.engine;

import io.quiver.core.internal.pipeline.ToolLimits;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * One tool's limits, as a factory configuration ({@code etc/io.quiver.core.tool-<name>.cfg}). The
 * engine picks every instance up.
 */
@Component(service = ToolLimitsComponent.class, configurationPid = "io.quiver.core.tool",
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = ToolLimitsComponent.Config.class, factory = true)
public final class ToolLimitsComponent {

    /** Limits of one tool. */
    @ObjectClassDefinition(name = "Quiver tool limits", description = "Timeout, concurrency and output limits of one tool")
    public @interface Config {
        @AttributeDefinition(description = "The tool name")
        String tool();

        @AttributeDefinition(description = "Per-attempt timeout (ms); 0 keeps the default")
        long timeoutMs() default 0;

        @AttributeDefinition(description = "Attempts of this tool running at once; 0 is unlimited")
        int maxConcurrentCalls() default 0;

        @AttributeDefinition(description = "Most bytes of output; 0 keeps the server's limit")
        long maxOutputBytes() default 0;
    }

    private final ToolLimits limits;

    @Activate
    public ToolLimitsComponent(Config config) {
        this.limits = new ToolLimits(config.tool().trim(), config.timeoutMs(), config.maxConcurrentCalls(),
                config.maxOutputBytes());
    }

    public ToolLimits limits() {
        return limits;
    }
}
