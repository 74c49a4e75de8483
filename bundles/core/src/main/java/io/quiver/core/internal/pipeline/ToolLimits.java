package io.quiver.core.internal.pipeline;

/**
 * Limits of one tool, from a factory configuration {@code io.quiver.core.tool~<name>}; a value of 0
 * takes the tool's own or the server's default.
 *
 * @param tool the tool name
 * @param timeoutMs the per-attempt timeout
 * @param maxConcurrentCalls attempts of this tool running at once
 * @param maxOutputBytes the most this tool may return
 */
public record ToolLimits(String tool, long timeoutMs, int maxConcurrentCalls, long maxOutputBytes) {
}
