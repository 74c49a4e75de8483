/** What a tool can ask the user or the client for (elicitation, sampling, roots) and the answers. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package io.quiver.api.input;
