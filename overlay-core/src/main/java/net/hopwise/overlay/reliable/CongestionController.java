package net.hopwise.overlay.reliable;

/**
 * Decides how many packets a reliable link may have in flight. One instance per link direction,
 * driven by the {@link ReliableLinkSender} on the node's event loop; implementations are sans-IO
 * like the sender. The sender tells it what happened (packets acknowledged, a congestion event, a
 * timeout) and it answers with a window in packets.
 *
 * <p>The default is {@link RenoCongestionController}; CUBIC or delay-based controllers plug in
 * through {@link ReliableLinkConfig.Builder#congestionControl}.
 */
public interface CongestionController {
    /** Packets allowed in flight now; at least 1. */
    int window();

    /**
     * Packets newly acknowledged (cumulatively or selectively) by one acknowledgement.
     *
     * @param rttNanos an RTT sample from a packet sent once, or -1
     * @param windowLimited whether the sender had more to send than the window allowed, so that
     *     growing the window would have let more out (a window never grows while it is not used)
     */
    void onAcknowledged(int packets, long rttNanos, boolean windowLimited, long nowNanos);

    /** A congestion event: loss detected from acknowledgements, at most once per window of data. */
    void onLoss(long nowNanos);

    /** The retransmission timer expired: nothing arrived for a whole timeout. */
    void onTimeout(long nowNanos);

    /** Slow-start threshold in packets, for statistics; {@code Integer.MAX_VALUE} when not used. */
    int slowStartThreshold();

    /** Creates one controller per link. */
    @FunctionalInterface
    interface Factory {
        /**
         * @param maxWindow the largest window the sender can use (its send window): a controller
         *     never needs to grow beyond it
         */
        CongestionController create(int maxWindow);
    }
}
