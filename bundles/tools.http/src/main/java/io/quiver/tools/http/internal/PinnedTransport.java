package io.quiver.tools.http.internal;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import org.eclipse.jetty.io.Transport;

/**
 * TCP to one address that {@link Fetcher} has checked, and to nowhere else: the {@link Transport} of one
 * Jetty request. It asks for no name lookup, so Jetty connects to this address without resolving the
 * URL's host again. The address carries the URL's host name, which Jetty's TLS takes from it for SNI and
 * the certificate check, exactly as for a connection made by name.
 *
 * <p>Transports are part of Jetty's destination key and this one is compared by identity, so every
 * request that carries one gets a destination and a connection of its own: no connection opened for one
 * checked address ever serves another request.
 */
final class PinnedTransport extends Transport.TCPIP {

    private final InetSocketAddress address;

    /**
     * @param host the URL's host, normalized ({@link HostPattern#normalize}): a name, or an address literal
     * @param address a checked address of that host
     */
    PinnedTransport(String host, InetAddress address, int port) {
        this.address = new InetSocketAddress(named(host, address), port);
    }

    /** The address, under the host's name when the host is a name (no lookup: the bytes are the checked ones). */
    private static InetAddress named(String host, InetAddress address) {
        String name = Addresses.literal(host) == null ? host : null;
        try {
            if (address instanceof Inet6Address v6 && v6.getScopeId() != 0) {
                return Inet6Address.getByAddress(name, v6.getAddress(), v6.getScopeId());
            }
            return InetAddress.getByAddress(name, address.getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e); // not reached: the bytes come from an InetAddress
        }
    }

    @Override
    public boolean requiresDomainNameResolution() {
        return false;
    }

    @Override
    public SocketAddress getSocketAddress() {
        return address;
    }

    @Override
    public String toString() {
        return "PinnedTransport[" + address + "]";
    }
}
