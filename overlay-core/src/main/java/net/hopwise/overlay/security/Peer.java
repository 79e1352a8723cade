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
    /** Drops on this link's sessions, and handshakes refused for its name: per-link counters for operators. */
    long replays;
    long forgeries;
    long rejections;
    long lastFinalSentNanos;

    Peer(String name, InetSocketAddress address) {
        this.name = name;
        this.address = address;
    }
}
