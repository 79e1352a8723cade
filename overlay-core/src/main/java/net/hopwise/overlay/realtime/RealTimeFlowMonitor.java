package net.hopwise.overlay.realtime;

/**
 * The destination's view of one real-time flow: which end-to-end sequence numbers arrived, how late,
 * and how the delay varied.
 *
 * <p>Loss is counted the RTP way, from the first to the highest sequence number seen. Late packets
 * are still delivered (the application or its codec decides) and counted, and so are packets that a
 * link on the way had to resend. Jitter is the RFC 3550 estimate: a 1/16 moving average of the change
 * in transit time between consecutive arrivals.
 */
public final class RealTimeFlowMonitor {
    private final long lateDeadlineNanos;
    private final SequenceWindow window;
    private final DelayHistogram delays = new DelayHistogram();
    private long first = -1;
    private long received;
    private long late;
    private long recovered;
    private long duplicates;
    private long minDelay = Long.MAX_VALUE;
    private long maxDelay = Long.MIN_VALUE;
    private double delaySum;
    private long lastTransit;
    private boolean hasTransit;
    private double jitter;
    private long lastArrivalNanos = Long.MIN_VALUE;

    public RealTimeFlowMonitor(RealTimeConfig config) {
        this.lateDeadlineNanos = config.lateDeadline().toNanos();
        this.window = new SequenceWindow(config.duplicateWindow());
    }

    /**
     * Records an arrival.
     *
     * @param wireSequence the packet's 32-bit end-to-end sequence number
     * @param sendTimeNanos the origin's send time stamp
     * @return false for a copy already seen, which should not be delivered again
     */
    public boolean onPacket(long wireSequence, long sendTimeNanos, long nowNanos) {
        return onPacket(wireSequence, sendTimeNanos, nowNanos, nowNanos - sendTimeNanos > lateDeadlineNanos, false);
    }

    /**
     * Records an arrival whose lateness the caller judged, as a receiver does that knows a packet's
     * deadline better than the two clocks' difference tells it, and told whether a link on the way
     * resent the packet.
     *
     * @param late whether the packet missed its deadline (counted in {@code late})
     * @param recovered whether a link on the way resent it (counted in {@code recovered} for the
     *     first copy only)
     * @return false for a copy already seen
     */
    public boolean onPacket(long wireSequence, long sendTimeNanos, long nowNanos, boolean late, boolean recovered) {
        lastArrivalNanos = nowNanos;
        long seq = window.unwrap(wireSequence);
        long r = window.accept(seq);
        if (r == SequenceWindow.DUPLICATE) {
            duplicates++;
            return false;
        }
        if (r == SequenceWindow.STALE) {
            // The sender started the flow over: count afresh from here.
            window.reset();
            window.accept(seq);
            first = seq;
        }
        if (first < 0 || seq < first) {
            first = seq; // a packet overtaken by its successors (or resent) still counts as expected
        }
        received++;
        long delay = nowNanos - sendTimeNanos;
        delays.record(delay);
        delaySum += delay;
        minDelay = Math.min(minDelay, delay);
        maxDelay = Math.max(maxDelay, delay);
        if (late) {
            this.late++;
        }
        if (recovered) {
            this.recovered++;
        }
        if (hasTransit) {
            long d = Math.abs(delay - lastTransit);
            jitter += (d - jitter) / 16.0;
        }
        lastTransit = delay;
        hasTransit = true;
        return true;
    }

    /** When a packet of the flow (a duplicate included) last arrived; MIN_VALUE before the first. */
    public long lastArrivalNanos() {
        return lastArrivalNanos;
    }

    public long received() {
        return received;
    }

    /** Highest end-to-end sequence number seen (widened), or -1. */
    public long highest() {
        return window.highest();
    }

    public RealTimeFlowStatistics snapshot(String sourceName, int sourcePort, int port) {
        long expected = first < 0 ? 0 : window.highest() - first + 1;
        boolean any = received > 0;
        return new RealTimeFlowStatistics(sourceName, sourcePort, port, received, Math.max(0, expected - received),
                late, duplicates, recovered, any ? minDelay : 0, any ? delaySum / received : 0,
                delays.quantileNanos(0.5), delays.quantileNanos(0.99), any ? maxDelay : 0, jitter);
    }
}
