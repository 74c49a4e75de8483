/** Resources and resource templates as services, and the way to announce that one changed. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package io.quiver.api.resource;
