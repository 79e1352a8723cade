package net.hopwise.overlay;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A configured overlay neighbour: its node name and the UDP address where it listens.
 *
 * <p>The address is only where to send the first hello; the link follows the neighbour if its
 * hellos later come from another address (NAT rebinding, readdressing).
 */
public record NeighbourConfig(String name, InetSocketAddress address) {
    public NeighbourConfig {
        NodeId.requireValidName(name);
        Objects.requireNonNull(address, "neighbour address");
        if (address.getPort() <= 0) {
            throw new IllegalArgumentException("neighbour " + name + " needs a UDP port, got " + address);
        }
    }

    public NodeId id() {
        return NodeId.ofName(name);
    }

    /** Parses {@code name@host:port}, with IPv6 hosts in brackets: {@code b@[::1]:8100}. */
    public static NeighbourConfig parse(String spec) {
        Objects.requireNonNull(spec, "neighbour");
        int at = spec.indexOf('@');
        int colon = spec.lastIndexOf(':');
        if (at <= 0 || colon < at + 2 || colon == spec.length() - 1) {
            throw new IllegalArgumentException("neighbour '" + spec + "' is not of the form name@host:port");
        }
        String host = spec.substring(at + 1, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(spec.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("neighbour '" + spec + "' has no numeric port");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("neighbour '" + spec + "' port must be 1-65535");
        }
        return new NeighbourConfig(spec.substring(0, at), new InetSocketAddress(host, port));
    }

    @Override
    public String toString() {
        return name + "@" + address.getHostString() + ":" + address.getPort();
    }
}
