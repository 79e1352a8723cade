package net.hopwise.overlay.node;

/**
 * A node's real-time flow counters. Written only on the node's event loop; read from anywhere
 * (meters) through opaque accesses.
 */
public final class RealTimeCounters {
    static final int SENT = 0;
    static final int FORWARDED = 1;
    static final int DELIVERED = 2;
    static final int LATE = 3;
    static final int RECOVERED = 4;
    private final long[] counts = new long[5];

    void add(int counter) {
        Opaque.add(counts, counter, 1);
    }

    /** Real-time packets sent by local flows. */
    public long sent() {
        return Opaque.get(counts, SENT);
    }

    /** Real-time packets forwarded for other nodes. */
    public long forwarded() {
        return Opaque.get(counts, FORWARDED);
    }

    /** Real-time packets delivered to local ports (first copies). */
    public long delivered() {
        return Opaque.get(counts, DELIVERED);
    }

    /** Delivered real-time packets older than the late deadline. */
    public long late() {
        return Opaque.get(counts, LATE);
    }

    /** Delivered real-time packets that a link on the way had to resend. */
    public long recovered() {
        return Opaque.get(counts, RECOVERED);
    }
}
