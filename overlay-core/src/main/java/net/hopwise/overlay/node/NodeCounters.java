package net.hopwise.overlay.node;

import net.hopwise.overlay.wire.DropReason;

/**
 * A node's counters. Written only on the node's event loop; read from anywhere (meters, admin) through
 * opaque accesses ({@code Opaque}), whole and visible, without atomics on the hot path.
 */
public final class NodeCounters {
    static final int PACKETS_RECEIVED = 0;
    static final int BYTES_RECEIVED = 1;
    static final int PACKETS_SENT = 2;
    static final int BYTES_SENT = 3;
    static final int PACKETS_FORWARDED = 4;
    static final int MESSAGES_SENT = 5;
    static final int MESSAGES_DELIVERED = 6;
    static final int HANDLER_FAILURES = 7;
    static final int ROUTE_CHANGES = 8;
    private final long[] counts = new long[9];
    private final long[] drops = new long[DropReason.values().length];
    /** Drops counted outside the node's stages (impairment handler, kernel), read when asked. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<java.util.function.LongSupplier> elsewhere =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(DropReason.values().length);

    void add(int counter, long delta) {
        Opaque.add(counts, counter, delta);
    }

    void drop(DropReason reason) {
        Opaque.add(drops, reason.ordinal(), 1);
    }

    void drop(DropReason reason, long count) {
        Opaque.add(drops, reason.ordinal(), count);
    }

    public long packetsReceived() {
        return Opaque.get(counts, PACKETS_RECEIVED);
    }

    public long bytesReceived() {
        return Opaque.get(counts, BYTES_RECEIVED);
    }

    public long packetsSent() {
        return Opaque.get(counts, PACKETS_SENT);
    }

    public long bytesSent() {
        return Opaque.get(counts, BYTES_SENT);
    }

    public long packetsForwarded() {
        return Opaque.get(counts, PACKETS_FORWARDED);
    }

    public long messagesSent() {
        return Opaque.get(counts, MESSAGES_SENT);
    }

    public long messagesDelivered() {
        return Opaque.get(counts, MESSAGES_DELIVERED);
    }

    /** Exceptions thrown by applications' message handlers; the node survives them. */
    public long handlerFailures() {
        return Opaque.get(counts, HANDLER_FAILURES);
    }

    /** Route computations that changed a next hop or path. */
    public long routeChanges() {
        return Opaque.get(counts, ROUTE_CHANGES);
    }

    /**
     * Counts drops of {@code reason} that happen where the stages cannot see them (the impairment
     * handler in front of the chain, the kernel's socket buffer): {@link #drops} adds what
     * {@code source} says, so every reader (meters, admin, reports) sees one figure per reason.
     */
    public void countDropsElsewhere(DropReason reason, java.util.function.LongSupplier source) {
        elsewhere.set(reason.ordinal(), java.util.Objects.requireNonNull(source));
    }

    public long drops(DropReason reason) {
        java.util.function.LongSupplier s = elsewhere.get(reason.ordinal());
        long counted = Opaque.get(drops, reason.ordinal());
        return s == null ? counted : counted + s.getAsLong();
    }

    public long totalDrops() {
        long sum = 0;
        for (DropReason r : DropReason.values()) {
            sum += drops(r);
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
