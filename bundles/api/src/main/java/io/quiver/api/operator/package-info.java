/** What operators see of a running server: the catalog with its shadowed entries, and the sessions. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package io.quiver.api.operator;
