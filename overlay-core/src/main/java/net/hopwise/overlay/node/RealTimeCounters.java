package net.hopwise.overlay.node;

/**
 * A node's real-time flow counters. Written only on the node's event loop; read from anywhere
 * (meters), where a slightly stale value is fine.
 */
public final class RealTimeCounters {
    long sent;
    long forwarded;
    long delivered;
    long late;

    /** Real-time packets sent by local flows. */
    public long sent() {
        return sent;
    }

    /** Real-time packets forwarded for other nodes. */
    public long forwarded() {
        return forwarded;
    }

    /** Real-time packets delivered to local ports (first copies). */
    public long delivered() {
        return delivered;
    }

    /** Delivered real-time packets older than the late deadline. */
    public long late() {
        return late;
    }
}
