package net.hopwise.overlay.session;

/**
 * A snapshot of one reliable session end.
 *
 * @param messagesAccepted messages the application handed to the session
 * @param packetsSent packets sent end to end, resends included
 * @param retransmissions packets resent end to end (node failures, reroutes)
 * @param timeouts end-to-end timer expiries
 * @param congestionReactions acknowledgements whose congestion mark slowed the sender
 * @param sendBuffered packets held for sending (waiting or unacknowledged)
 * @param congestionWindow end-to-end congestion window in packets
 * @param advertisedWindow the peer's last advertised window in packets
 * @param srttNanos smoothed end-to-end RTT (0 before any)
 * @param packetsReceived new packets received
 * @param duplicatesReceived packets received more than once (end-to-end resends, dropped)
 * @param messagesDelivered messages handed to the application
 * @param receiveHeld packets held for reordering or for the application now
 * @param receiveHeldMax most packets ever held at once
 */
public record SessionStatistics(long messagesAccepted, long packetsSent, long retransmissions, long timeouts,
        long congestionReactions, int sendBuffered, int congestionWindow, long advertisedWindow, long srttNanos,
        long packetsReceived, long duplicatesReceived, long messagesDelivered, int receiveHeld, int receiveHeldMax) {}
