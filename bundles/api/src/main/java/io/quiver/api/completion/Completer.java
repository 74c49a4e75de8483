package io.quiver.api.completion;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Suggests values for an argument of a prompt or a resource template. Register it as a service
 * carrying the {@link McpCompletion} properties.
 */
@ConsumerType
@FunctionalInterface
public interface Completer {

    /** Suggests values for the argument being typed. */
    Completion complete(CompletionRequest request) throws Exception;
}
