package io.quiver.deployer.internal;

import io.quiver.lib.config.Min;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Settings of the deploy folder's installers (PID {@code io.quiver.deployer}). */
@ObjectClassDefinition(name = "Quiver deployer", description = "Bundles and feature files dropped into deploy/")
public @interface DeployerConfig {

    /** The configuration PID. */
    String PID = "io.quiver.deployer";

    @AttributeDefinition(description = "Local Maven repositories searched for feature bundles; empty: ~/.m2/repository")
    String[] mavenRepositories() default {};

    @AttributeDefinition(description = "Largest file taken from deploy/ (bytes); a larger one is refused and listed as a problem")
    @Min(1)
    long maxFileBytes() default 128L << 20;

    @AttributeDefinition(description = "How long a bundle from deploy/ may take to start (ms); a longer start goes on"
            + " in the background, listed as a problem, and deploy/ moves on to its other files")
    @Min(1)
    long startTimeoutMs() default 30_000;

    @AttributeDefinition(description = "How long a bundle from deploy/ may take to stop when its file is deleted or"
            + " replaced (ms); past it, deploy/ moves on (a removed bundle goes once its stop returns, a replaced one"
            + " keeps its version), listed as a problem")
    @Min(1)
    long stopTimeoutMs() default 30_000;
}
