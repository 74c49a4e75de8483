/**
 * Who is calling: {@link Authenticator} services turn a request's credential (an HTTP
 * {@code Authorization: Bearer} token) into a {@link io.quiver.api.CallerIdentity}. The transport
 * consults every registered one; when one is registered (or the server is told authentication is
 * required) a request without an accepted credential is refused before any MCP message is read.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package io.quiver.api.auth;
