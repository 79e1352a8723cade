package net.hopwise.overlay.sim.tcp;

/** Where a {@link TcpSender} puts the segments it sends. */
public interface TcpSenderOutput {
    /**
     * Sends segment {@code sequence}, which carries the message generated at {@code generatedAtNanos}.
     *
     * @param retransmission whether this segment was sent before
     */
    void sendSegment(long sequence, long generatedAtNanos, boolean retransmission);
}
