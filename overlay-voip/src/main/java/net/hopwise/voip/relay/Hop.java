package net.hopwise.voip.relay;

import java.net.InetSocketAddress;

/**
 * Where a SIP message comes from or goes to: a phone of this relay's site (an address, on UDP or
 * on a TCP connection) or the relay of another overlay node.
 */
public sealed interface Hop {
    /** A phone (or any SIP element) reached over IP from this relay. */
    record Phone(InetSocketAddress address, boolean tcp) implements Hop {
        @Override
        public String toString() {
            return (tcp ? "tcp:" : "udp:") + address.getHostString() + ":" + address.getPort();
        }
    }

    /** The relay beside another overlay node, reached over the overlay. */
    record Node(String name) implements Hop {
        @Override
        public String toString() {
            return "node:" + name;
        }
    }
}
