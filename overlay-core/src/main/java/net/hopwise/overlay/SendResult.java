package net.hopwise.overlay;

/** What became of a send: a value, because every outcome but misuse is a normal event in a network. */
public enum SendResult {
    /** Taken by the node; best-effort delivery is now up to the overlay. */
    ACCEPTED,
    /** The destination is not reachable under the chosen metric right now. */
    NO_ROUTE,
    /** The node's outbound queue is full; try again when {@link OverlayPort#isWritable()} says so. */
    BACK_PRESSURED,
    /** The port or node is closed. */
    CLOSED
}
