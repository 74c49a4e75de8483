/** What operators see of a running server: the catalog with its shadowed entries, the sessions, the upstream servers, what each transport holds, and the problems to fix. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.7.0")
package io.quiver.api.operator;
