package net.hopwise.examples.fairness;

/**
 * When a link of a given rate and propagation delay delivers each packet handed to it: the
 * transmission starts when the packet is handed over or when the previous one's ends, whichever
 * is later, takes the packet's bits at the rate, and the far end has the packet a propagation
 * delay after the transmission ends. This is the simulator's link after its queue ({@code
 * SimLink}): the packet leaves the queue when its transmission starts and arrives when it ends.
 *
 * <p>A token bucket ({@code tc tbf}) releases a packet at the instant the simulator's link would
 * start sending it and the veth behind it delivers it at once, so a receiver behind tbf hears of
 * each packet a transmission time earlier than behind the simulator's link. Placed behind the
 * bucket, this wire gives the packet back that time. Sans-IO: instants in, instants out.
 */
final class SerialisingWire {
    private final double nanosPerByte;
    private final long propagationNanos;
    private long busyUntilNanos = Long.MIN_VALUE;

    /**
     * @param rateBitsPerSecond the link's rate, which should be the bucket's, counting the bytes the
     *     bucket counts
     * @param propagationNanos the delay after the transmission
     */
    SerialisingWire(long rateBitsPerSecond, long propagationNanos) {
        if (rateBitsPerSecond <= 0 || propagationNanos < 0) {
            throw new IllegalArgumentException("the rate must be positive and the propagation delay not negative");
        }
        this.nanosPerByte = 8e9 / rateBitsPerSecond;
        this.propagationNanos = propagationNanos;
    }

    /** The instant the far end has a packet of {@code bytes} handed to the wire at {@code nowNanos}. */
    long deliverAt(long nowNanos, int bytes) {
        long start = Math.max(nowNanos, busyUntilNanos);
        busyUntilNanos = start + Math.round(bytes * nanosPerByte);
        return busyUntilNanos + propagationNanos;
    }
}
