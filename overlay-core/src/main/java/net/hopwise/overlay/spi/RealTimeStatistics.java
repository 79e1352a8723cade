package net.hopwise.overlay.spi;

/**
 * What a real-time stream looked like at its receiver, at one instant: the statistics of a {@link
 * RealTimeMonitor}, as unicast real-time flows report them.
 *
 * <p>Delays are {@code arrival - send time}, the send time read onto the receiver's clock hop by hop
 * by each link's clock offset ({@code LinkView#clockOffsetNanos}): exact between nodes of one machine,
 * across machines within half of each link's round-trip asymmetry. Jitter, the spread of the delay and
 * loss do not depend on the offset.
 *
 * @param received distinct packets that arrived, late ones included
 * @param lost packets missing from the stream's sequence so far (first to highest seen)
 * @param late packets that arrived after their deadline (counted in {@code received} too)
 * @param duplicates copies that arrived again (suppressed)
 * @param recovered packets that arrived only because a link resent them (counted in {@code received})
 * @param minDelayNanos smallest one-way delay
 * @param meanDelayNanos mean one-way delay
 * @param p50DelayNanos median one-way delay
 * @param p99DelayNanos 99th percentile of the one-way delay
 * @param maxDelayNanos largest one-way delay
 * @param jitterNanos RFC 3550 interarrival jitter
 */
public record RealTimeStatistics(long received, long lost, long late, long duplicates, long recovered,
        long minDelayNanos, double meanDelayNanos, long p50DelayNanos, long p99DelayNanos, long maxDelayNanos,
        double jitterNanos) {

    /** Packets the sender sent up to the highest one seen. */
    public long expected() {
        return received + lost;
    }

    /** Share of expected packets that never arrived. */
    public double lossRate() {
        long e = expected();
        return e == 0 ? 0 : (double) lost / e;
    }

    /** Share of expected packets that arrived after their deadline. */
    public double lateRate() {
        long e = expected();
        return e == 0 ? 0 : (double) late / e;
    }

    /** Lost or late: what a codec with this deadline would have to conceal. */
    public double missedRate() {
        long e = expected();
        return e == 0 ? 0 : (double) (lost + late) / e;
    }
}
