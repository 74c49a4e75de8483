/** Quiver built-in tools: local commands declared in configuration, run without a shell, bounded in time and output. */
package io.quiver.tools.command.internal;
