/** Argument completion for prompts and resource templates. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package io.quiver.api.completion;
