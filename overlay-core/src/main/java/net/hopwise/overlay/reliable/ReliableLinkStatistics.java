package net.hopwise.overlay.reliable;

/**
 * A snapshot of one link's reliable channel, for admin views and meters.
 *
 * @param queueLength packets waiting in front of the window
 * @param unacknowledged packets sent and not yet acknowledged
 * @param congestionWindowBytes bytes on the wire the congestion controller allows in flight
 * @param slowStartThresholdBytes the controller's threshold in bytes
 * @param srttNanos smoothed RTT of the channel's own acknowledgements (0 before any)
 * @param timeoutNanos the current retransmission timeout, backoff included
 * @param packetsSent transmissions, retransmissions included
 * @param retransmissions packets sent again
 * @param lossEvents congestion events (at most one per window of data)
 * @param timeouts retransmission timer expiries
 * @param tailProbes second copies of a flight's lone last packet, sent before any loss was known
 * @param spuriousTimeouts timeouts a late acknowledgement showed spurious, and undone
 */
public record ReliableLinkStatistics(int queueLength, int unacknowledged, long congestionWindowBytes,
        long slowStartThresholdBytes, long srttNanos, long timeoutNanos, long packetsSent, long retransmissions,
        long lossEvents, long timeouts, long tailProbes, long spuriousTimeouts) {}
