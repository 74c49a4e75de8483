/** Resources and resource templates as services, the way to announce that one changed, and to learn which are subscribed to. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package io.quiver.api.resource;
