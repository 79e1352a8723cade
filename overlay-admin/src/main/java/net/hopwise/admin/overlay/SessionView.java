package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * One end-to-end stream at the service's node: a reliable session it holds, or a real-time flow
 * arriving at one of its ports. Exactly one of {@code reliable} and {@code realTime} is present.
 */
public record SessionView(
        @Schema(description = "RELIABLE for a reliable session, REAL_TIME for a real-time flow arriving here") Kind kind,
        @Schema(description = "The local node holding the session or receiving the flow") String node,
        @Schema(description = "The local port of the session, or the port the flow arrives at") int localPort,
        @Schema(description = "The other end: the session's peer or the flow's source") String peer,
        @Schema(description = "The peer's port") int peerPort,
        @Schema(description = "Present for a reliable session", nullable = true) Reliable reliable,
        @Schema(description = "Present for a real-time flow", nullable = true) RealTime realTime) {

    /** What kind of stream. */
    public enum Kind {
        RELIABLE,
        REAL_TIME
    }

    /** A reliable session end's state, counters and windows. */
    public record Reliable(
            @Schema(description = "OPEN, BLOCKED (the first link refused its last packet: back-pressured) or CLOSED")
                    String state,
            @Schema(description = "Messages the application handed to the session") long messagesSent,
            @Schema(description = "Messages from the peer handed to the application") long messagesDelivered,
            @Schema(description = "Packets sent end to end, resends included") long packetsSent,
            @Schema(description = "Packets resent end to end (hop-by-hop resends are counted per link)")
                    long retransmissions,
            @Schema(description = "End-to-end timer expiries") long timeouts,
            @Schema(description = "End-to-end congestion window, packets") int congestionWindow,
            @Schema(description = "The peer's last advertised window, packets") long advertisedWindow,
            @Schema(description = "Packets held for sending: waiting or unacknowledged") int sendBuffered,
            @Schema(description = "Packets received and held for reordering or for the application") int receiveHeld,
            @Schema(description = "Smoothed end-to-end RTT, ms; null before the first sample", nullable = true)
                    Double rttMs) {}

    /** A real-time flow as its destination sees it. */
    public record RealTime(
            @Schema(description = "Distinct packets that arrived") long received,
            @Schema(description = "Packets missing from the sequence so far") long lost,
            @Schema(description = "Packets recovered hop by hop (a gap filled by a resend the receiving hop asked"
                    + " for) on the links of the flow's path, counted at each hop's receiving end; the links' counts"
                    + " include any other real-time flow crossing them. Null when the path is unknown or a hop's"
                    + " receiving end is not in this process", nullable = true) Long recovered,
            @Schema(description = "Packets that arrived after the deadline (counted in received too)") long late,
            @Schema(description = "Share of expected packets lost, 0-1") double lossRate,
            @Schema(description = "Median one-way delay, ms (exact between nodes of one machine; across machines within half of each"
                    + " link's round-trip asymmetry)") double delayP50Ms,
            @Schema(description = "99th percentile of the one-way delay, ms") double delayP99Ms,
            @Schema(description = "RFC 3550 interarrival jitter, ms") double jitterMs,
            @Schema(description = "The nodes the source's packets cross, source first, as the service's node"
                    + " routes them by hop count; empty when unknown") List<String> path) {}
}
