package net.hopwise.overlay.node;

import net.hopwise.overlay.wire.DropReason;

/**
 * A node's counters. Written only on the node's event loop; read from anywhere (meters, admin),
 * where a slightly stale value is fine, so plain fields keep the hot path free of atomics.
 */
public final class NodeCounters {
    long packetsReceived;
    long bytesReceived;
    long packetsSent;
    long bytesSent;
    long packetsForwarded;
    long messagesSent;
    long messagesDelivered;
    long handlerFailures;
    long routeChanges;
    private final long[] drops = new long[DropReason.values().length];

    void drop(DropReason reason) {
        drops[reason.ordinal()]++;
    }

    void drop(DropReason reason, long count) {
        drops[reason.ordinal()] += count;
    }

    public long packetsReceived() {
        return packetsReceived;
    }

    public long bytesReceived() {
        return bytesReceived;
    }

    public long packetsSent() {
        return packetsSent;
    }

    public long bytesSent() {
        return bytesSent;
    }

    public long packetsForwarded() {
        return packetsForwarded;
    }

    public long messagesSent() {
        return messagesSent;
    }

    public long messagesDelivered() {
        return messagesDelivered;
    }

    /** Exceptions thrown by applications' message handlers; the node survives them. */
    public long handlerFailures() {
        return handlerFailures;
    }

    /** Route computations that changed a next hop or path. */
    public long routeChanges() {
        return routeChanges;
    }

    public long drops(DropReason reason) {
        return drops[reason.ordinal()];
    }

    public long totalDrops() {
        long sum = 0;
        for (long d : drops) {
            sum += d;
        }
        return sum;
    }
}
