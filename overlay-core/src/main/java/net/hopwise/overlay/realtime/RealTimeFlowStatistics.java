package net.hopwise.overlay.realtime;

import java.time.Duration;

/**
 * What one real-time flow looked like at its destination, at one instant.
 *
 * <p>Delays are {@code arrival - send time}, the send time read onto the destination's clock hop by
 * hop by each link's clock offset ({@code LinkView#clockOffsetNanos}): exact between nodes of one
 * machine, across machines within half of each link's round-trip asymmetry. Jitter, the spread of the
 * delay ({@code p99 - min}) and loss do not depend on the offset.
 *
 * @param sourceName the origin node's name (or id when routing does not know it yet)
 * @param sourcePort the origin's port
 * @param port the local port the flow arrives at
 * @param received distinct packets that arrived
 * @param lost packets missing from the end-to-end sequence so far (first to highest seen)
 * @param late packets that arrived later than the deadline (counted in {@code received} too)
 * @param duplicates copies that arrived again (suppressed)
 * @param recovered packets that arrived only because a link on the way resent them (counted in
 *     {@code received} too): what hop-by-hop recovery saved from {@code lost}
 * @param minDelayNanos smallest one-way delay
 * @param meanDelayNanos mean one-way delay
 * @param p50DelayNanos median one-way delay
 * @param p99DelayNanos 99th percentile of the one-way delay
 * @param maxDelayNanos largest one-way delay
 * @param jitterNanos RFC 3550 interarrival jitter
 */
public record RealTimeFlowStatistics(String sourceName, int sourcePort, int port, long received, long lost,
        long late, long duplicates, long recovered, long minDelayNanos, double meanDelayNanos, long p50DelayNanos,
        long p99DelayNanos, long maxDelayNanos, double jitterNanos) {

    /** Packets the sender sent up to the highest one seen. */
    public long expected() {
        return received + lost;
    }

    /** Share of expected packets that never arrived. */
    public double lossRate() {
        long e = expected();
        return e == 0 ? 0 : (double) lost / e;
    }

    /** Share of expected packets that arrived after the deadline. */
    public double lateRate() {
        long e = expected();
        return e == 0 ? 0 : (double) late / e;
    }

    /** Lost or late: what a codec with this deadline would have to conceal. */
    public double missedRate() {
        long e = expected();
        return e == 0 ? 0 : (double) (lost + late) / e;
    }

    public Duration p99Delay() {
        return Duration.ofNanos(p99DelayNanos);
    }
}
