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
        for (ModuleDrop d : moduleDrops) {
            sum += d.count();
        }
        return sum;
    }

    /** The drop reasons modules registered, with their counts. */
    public java.util.List<net.hopwise.overlay.spi.DropCounter> moduleDrops() {
        return java.util.List.copyOf(moduleDrops);
    }

    private final java.util.List<ModuleDrop> moduleDrops = new java.util.concurrent.CopyOnWriteArrayList<>();

    net.hopwise.overlay.spi.DropCounter moduleDrop(String reason) {
        for (ModuleDrop d : moduleDrops) {
            if (d.reason().equals(reason)) {
                throw new IllegalArgumentException("drop reason " + reason + " is already registered");
            }
        }
        for (DropReason r : DropReason.values()) {
            if (r.tag().equals(reason)) {
                throw new IllegalArgumentException("drop reason " + reason + " is one of the node's own");
            }
        }
        ModuleDrop d = new ModuleDrop(reason);
        moduleDrops.add(d);
        return d;
    }

    /** Written on the node's thread only; volatile so meters on other threads read whole values. */
    private static final class ModuleDrop implements net.hopwise.overlay.spi.DropCounter {
        private final String reason;
        private volatile long count;

        ModuleDrop(String reason) {
            this.reason = reason;
        }

        @Override
        public String reason() {
            return reason;
        }

        @Override
        @SuppressWarnings("NonAtomicOperationOnVolatileField") // one writer: the node's thread
        public void increment() {
            count++;
        }

        @Override
        public long count() {
            return count;
        }
    }
}
