package net.hopwise.overlay.security;

import java.net.InetSocketAddress;

/** One neighbour's keys and handshake. */
final class Peer {
    final String name;
    InetSocketAddress address;
    Session current;
    Session previous;
    Initiation initiation;
    long handshakes;
    long rekeys;
    long lastFinalSentNanos;

    Peer(String name, InetSocketAddress address) {
        this.name = name;
        this.address = address;
    }
}
