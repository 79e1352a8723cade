package net.hopwise.overlay.reliable;

/**
 * Decides how many bytes a reliable link may have in flight. One instance per link direction,
 * driven by the {@link ReliableLinkSender} on the node's event loop; implementations are sans-IO
 * like the sender. The sender tells it what happened (bytes acknowledged, a congestion event, a
 * timeout) and it answers with a window in bytes.
 *
 * <p>Windows count bytes on the wire (IP packets, headers included), in segments of
 * {@link ReliableLinkConfig#segmentBytes()}: an overlay packet is smaller than a full TCP segment
 * (a datagram carries at most 1200 bytes), and a window counted in packets would give the link
 * less than a TCP flow's share of a bottleneck, in proportion to the sizes.
 *
 * <p>The default is {@link RenoCongestionController}; CUBIC or delay-based controllers plug in
 * through {@link ReliableLinkConfig.Builder#congestionControl}.
 */
public interface CongestionController {
    /** Bytes allowed in flight now; the sender always lets at least one packet out. */
    long window();

    /**
     * Bytes newly acknowledged (cumulatively or selectively) by one acknowledgement.
     *
     * @param rttNanos an RTT sample from a packet sent once, or -1
     * @param windowLimited whether the sender had more to send than the window allowed, so that
     *     growing the window would have let more out (a window never grows while it is not used)
     */
    void onAcknowledged(long bytes, long rttNanos, boolean windowLimited, long nowNanos);

    /** A congestion event: loss detected from acknowledgements, at most once per window of data. */
    void onLoss(long nowNanos);

    /** The retransmission timer expired: nothing arrived for a whole timeout. */
    void onTimeout(long nowNanos);

    /**
     * The last timeout was spurious: a packet sent before it and never sent again since was
     * acknowledged after it, so the acknowledgements were late, not the packets lost (a pause of the
     * host or the receiver). The controller may go back to the window it had before that timeout,
     * as TCP does after an Eifel or F-RTO detection (RFC 4015). By default it keeps its reduction.
     */
    default void onSpuriousTimeout(long nowNanos) {}

    /** Slow-start threshold in bytes, for statistics; {@code Long.MAX_VALUE} when not used. */
    long slowStartThreshold();

    /** Creates one controller per link. */
    @FunctionalInterface
    interface Factory {
        /**
         * @param maxWindowBytes the largest window the sender can use: a controller never needs to
         *     grow beyond it
         * @param segmentBytes the full-size segment the window grows and shrinks by
         */
        CongestionController create(long maxWindowBytes, int segmentBytes);
    }
}
