/**
 * The tool author's API: {@link io.quiver.api.Tool}, the {@link io.quiver.api.McpTool} component
 * property type, results and the per-call context.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.7.0")
package io.quiver.api;
