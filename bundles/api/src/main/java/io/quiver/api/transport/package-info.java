/**
 * The transport SPI: how a transport (Streamable HTTP, stdio, an embedding application) hands
 * framed messages to the protocol engine and receives what the engine sends back. Transports
 * move bytes and vouch for the caller; everything else is the engine's.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.5.0")
package io.quiver.api.transport;
