package net.hopwise.overlay.sim.tcp;

/** Where a {@link TcpReceiver} puts its acknowledgements and in-order messages. */
public interface TcpReceiverOutput {
    /**
     * Sends an acknowledgement.
     *
     * @param cumulative the next sequence number expected
     * @param sackBlocks pairs (start, end exclusive) of blocks received above it, most recent first;
     *     only the first {@code 2 * sackBlockCount} entries are meaningful, and the array is reused
     */
    void sendAck(long cumulative, long[] sackBlocks, int sackBlockCount);

    /** Hands one message to the application, in order. */
    void deliver(long sequence, long generatedAtNanos, long nowNanos);
}
