package io.quiver.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * An MCP tool. Register an implementation as an OSGi service carrying the {@link McpTool}
 * properties (annotate the component with {@code @McpTool(name = "...", description = "...")}).
 *
 * <p>One call may take several attempts: an attempt that needs something from the user returns
 * {@link Outcome#needsInput}, the engine obtains the answers and calls the tool again with them in
 * {@link ToolCall#answers()}. No thread is parked while the client answers.
 */
@ConsumerType
@FunctionalInterface
public interface Tool {

    /**
     * Runs one attempt of a call.
     *
     * @param call the arguments (already validated against the input schema) and the call context
     * @return the outcome of this attempt
     * @throws Exception any failure; the client sees a generic error, the message goes to the log
     */
    Outcome call(ToolCall call) throws Exception;
}
