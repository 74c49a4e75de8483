/** JSON Schemas generated from Java records, for tool arguments and structured output. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package io.quiver.api.schema;
