package net.hopwise.overlay.link;

/**
 * An immutable snapshot of one link's measurements and counters, from {@link LinkMonitor#statistics()}.
 *
 * @param status link status at the snapshot
 * @param srttNanos smoothed RTT (RFC 6298, alpha 1/8); 0 before the first sample
 * @param rttVarNanos RTT variation (RFC 6298, beta 1/4); 0 before the first sample
 * @param minRttNanos smallest RTT sample since creation or reset; 0 before the first sample
 * @param lastRttNanos latest RTT sample; 0 before the first sample
 * @param jitterNanos RFC 3550 inter-arrival jitter of the peer's hellos
 * @param inboundLossRate loss on packets from the peer, in [0, 1], over the last 50 loss events
 * @param outboundLossRate loss on packets to the peer, in [0, 1], as the peer last reported it
 * @param hellosSent hellos this monitor has emitted
 * @param hellosReceived hellos received from the peer, stale ones included
 * @param packetsReceived distinct link sequence numbers received (duplicates not counted)
 * @param packetsLost link sequence numbers counted lost, net of late arrivals that filled a gap
 * @param upTransitions times the link went up
 * @param downTransitions times the link went down
 * @param peerClockOffsetNanos the peer's monotonic clock minus ours ({@link ClockOffset}); 0 before the
 *     first echo and between nodes of one machine
 */
public record LinkStatistics(
        LinkStatus status,
        long srttNanos,
        long rttVarNanos,
        long minRttNanos,
        long lastRttNanos,
        long jitterNanos,
        double inboundLossRate,
        double outboundLossRate,
        long hellosSent,
        long hellosReceived,
        long packetsReceived,
        long packetsLost,
        long upTransitions,
        long downTransitions,
        long peerClockOffsetNanos) {}
