/** Content blocks: text, image, audio, resource links and embedded resources. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package io.quiver.api.content;
