package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/**
 * One link's statistics: measured in full at each local end, and from the flooded advertisements
 * (latency and loss per direction) where neither end is local.
 */
public record LinkStatisticsView(
        String id,
        String a,
        String b,
        LinkState state,
        @Schema(description = "MEASURED when an end is local, ADVERTISED when only flooded costs are known")
                Source source,
        Instant time,
        Summary summary,
        @Schema(description = "The link as seen from each end, a first") List<End> ends) {

    /** Where the figures come from. */
    public enum Source {
        MEASURED,
        ADVERTISED
    }

    /** The figures a table or chart shows for the link as a whole. */
    public record Summary(
            @Schema(description = "Round-trip time, ms: measured, or the sum of the advertised one-way latencies",
                    nullable = true) Double rttMs,
            @Schema(description = "Jitter, ms; measured links only", nullable = true) Double jitterMs,
            @Schema(description = "Loss rate of the worse direction, 0-1", nullable = true) Double lossRate,
            @Schema(description = "Bits per second over both directions; measured links only", nullable = true)
                    Double throughputBps,
            @Schema(description = "Hop-by-hop retransmissions over both directions: the reliable channel's resends"
                    + " plus the real-time channel's; measured links only", nullable = true) Long retransmissions,
            @Schema(description = "Packets waiting in front of the reliable channel's window, both directions;"
                    + " measured links only", nullable = true) Integer queuedPackets) {}

    /** The link as one end sees it. */
    public record End(
            String node,
            String peer,
            @Schema(description = "This end is a local node: the measured figures are present") boolean local,
            @Schema(description = "This end lists the link in its advertisement") boolean advertised,
            @Schema(description = "One-way latency this end advertises, ms", nullable = true) Double advertisedLatencyMs,
            @Schema(description = "Loss rate of packets this end sends, as it advertises it", nullable = true)
                    Double advertisedLossRate,
            @Schema(description = "Measurements of a local end; null for a remote one", nullable = true) Measured measured) {}

    /** What a local end measures and counts on the link. */
    public record Measured(
            @Schema(description = "CONNECTING, UP or DOWN") String status,
            @Schema(description = "Smoothed RTT, ms (RFC 6298); null before the first sample", nullable = true) Double rttMs,
            @Schema(nullable = true) Double rttVarMs,
            @Schema(nullable = true) Double minRttMs,
            @Schema(nullable = true) Double lastRttMs,
            @Schema(description = "RFC 3550 inter-arrival jitter of the peer's hellos, ms") double jitterMs,
            @Schema(description = "Loss of packets from the peer, 0-1") double lossInRate,
            @Schema(description = "Loss of packets to the peer as the peer reports it, 0-1") double lossOutRate,
            long packetsIn,
            long packetsOut,
            long bytesIn,
            long bytesOut,
            @Schema(description = "Bits per second received over the last sample interval", nullable = true)
                    Double throughputInBps,
            @Schema(description = "Bits per second sent over the last sample interval", nullable = true)
                    Double throughputOutBps,
            long upTransitions,
            long downTransitions,
            @Schema(description = "Where the peer's packets come from") String peerAddress,
            @Schema(description = "The peer's monotonic clock minus this node's, ms, estimated from the hellos;"
                    + " 0 between nodes of one machine. Real-time send times are read across it, so one-way"
                    + " delays hold between machines; null before the first echo", nullable = true)
                    Double peerClockOffsetMs,
            @Schema(description = "Packets this end resent on the link: reliableRetransmissions +"
                    + " realTimeRetransmissions") long retransmissions,
            @Schema(description = "Packets waiting in front of this end's reliable window towards the peer")
                    int queuedPackets,
            @Schema(description = "Resends of the reliable channel (session traffic, hop by hop)")
                    long reliableRetransmissions,
            @Schema(description = "Retransmission timer expiries of the reliable channel") long reliableTimeouts,
            @Schema(description = "Reliable packets sent and not yet acknowledged") int reliableInFlight,
            @Schema(description = "Reliable channel's congestion window, bytes on the wire") long reliableCongestionWindow,
            @Schema(description = "Resends of the real-time channel, answering the peer's NACKs")
                    long realTimeRetransmissions,
            @Schema(description = "NACKs this end sent for real-time packets missing from the peer") long nacksSent,
            @Schema(description = "NACKs this end received from the peer") long nacksReceived,
            @Schema(nullable = true) LinkSecurityStatus security) {}
}
