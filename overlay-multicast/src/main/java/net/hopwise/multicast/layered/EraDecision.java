package net.hopwise.multicast.layered;

/**
 * One entry of a receiver's decision trace, as the thesis's run-time trace (Appendix C) logged it:
 * what the receiver measured and what it did.
 *
 * @param samples the interval's bandwidth samples in bits per second (at most the first 64), empty for events without
 * @param bunchEstimate R_pp: the minimum sample, -1 when fewer than the minimum arrived, NaN when not computed
 * @param lossRate the loss rate the TCP equation took: l over the loss window, or TFRC's loss-event rate
 *     with {@link EraConfig#lossHistory()}
 * @param tcpRate R_TCP, +infinity when l = 0
 * @param target R_TARGET, NaN when the receiver held for want of samples
 * @param fromLevel the level before (highest layer held, -1 none)
 * @param toLevel the level after
 */
public record EraDecision(long nowNanos, Kind kind, double[] samples, double bunchEstimate, long packets,
        long losses, double lossRate, double rttSeconds, double tcpRate, double target, int fromLevel, int toLevel) {

    public enum Kind {
        /** The interval's decision (which may keep the level). */
        INTERVAL,
        /** Fewer samples than the minimum and no loss: the level holds and the window extends. */
        HOLD,
        /** One sample below the subscribed rate: immediate drop. */
        STABILITY_DROP,
        /** The delay of the session's packets says the bottleneck's queue grows fast: immediate drop to what is left. */
        QUEUE_DROP,
        /** No packet for the silence timeout: one layer less. */
        SILENCE_DROP,
        /** The first join, after a valid announcement. */
        START,
        /** The base layer rejoined after the back-off that followed leaving every layer. */
        REJOIN
    }

    static EraDecision event(long now, Kind kind, double sample, int from, int to) {
        return new EraDecision(now, kind, Double.isNaN(sample) ? new double[0] : new double[] {sample}, Double.NaN,
                0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, from, to);
    }

    @Override
    public String toString() {
        return String.format("%.4f %s samples=%d R_pp=%.1f pkts=%d loss=%d PLR=%.6f rtt=%.3f R_TCP=%.1f target=%.1f level %d->%d",
                nowNanos / 1e9, kind, samples.length, bunchEstimate, packets, losses, lossRate, rttSeconds, tcpRate,
                target, fromLevel, toLevel);
    }
}
