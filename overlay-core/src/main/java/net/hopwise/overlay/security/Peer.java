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
    /** Before this instant a resent FINAL gets no answer: at most one a retry interval. */
    long confirmAllowedFromNanos = Long.MIN_VALUE;

    Peer(String name, InetSocketAddress address) {
        this.name = name;
        this.address = address;
    }
}
