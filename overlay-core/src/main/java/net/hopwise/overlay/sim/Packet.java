package net.hopwise.overlay.sim;

/**
 * Anything a simulated link carries: an overlay datagram, or a segment of an end-to-end baseline
 * protocol that the simulator routes itself.
 *
 * <p>A packet knows what to do when it reaches the far end of a link ({@link #arrive}), so links
 * stay ignorant of what they carry; {@link #discard} is called instead when the packet is dropped
 * anywhere, and must release whatever it holds.
 */
public abstract class Packet {
    private final int sizeBytes;
    private final long flow;

    /**
     * @param sizeBytes bytes on the wire, headers included: what serialisation and byte counters see
     * @param flow the flow fair queuing schedules it in (for example the originating node's id)
     */
    protected Packet(int sizeBytes, long flow) {
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("a packet has at least one byte, got " + sizeBytes);
        }
        this.sizeBytes = sizeBytes;
        this.flow = flow;
    }

    public final int sizeBytes() {
        return sizeBytes;
    }

    public final long flow() {
        return flow;
    }

    /** The packet reached the far end of {@code via} at {@code nowNanos}; it now owns itself. */
    protected abstract void arrive(SimLink via, long nowNanos);

    /** The packet was dropped; release what it holds. */
    protected void discard() {
    }
}
