/**
 * The decisions other bundles make about calls, as whiteboard services the engine's pipeline consults
 * (the highest-ranked one of each kind; none: the default): {@link CallPolicy} decides what a caller
 * may see and call, {@link HostChannel} lets an embedding host approve, edit, answer, review, record
 * and release each tool call, and every {@link CallListener} hears one {@link CallEvent} per call (and, if it
 * asks, one more as its tool is about to run).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.5.0")
package io.quiver.api.call;
