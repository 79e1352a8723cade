package net.hopwise.overlay.impair;

/** Which way a datagram crosses the node's socket; each direction of a link is impaired on its own. */
public enum Direction {
    /** Sent by this node, keyed by the datagram's recipient. */
    OUTBOUND,
    /** Received by this node, keyed by the datagram's sender. */
    INBOUND
}
