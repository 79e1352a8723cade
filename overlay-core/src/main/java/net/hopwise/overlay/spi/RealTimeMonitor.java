package net.hopwise.overlay.spi;

import java.time.Duration;
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.realtime.RealTimeFlowMonitor;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;

/**
 * A receiver's account of one real-time stream, the one the node keeps for its unicast real-time
 * flows: which sequence numbers arrived (loss counted the RTP way, from the first to the highest
 * seen), duplicates, packets past their deadline, the one-way delay's distribution and RFC 3550
 * jitter. Sans-IO and not thread-safe: a module keeps one per stream and feeds it on the node's
 * thread; its memory is fixed (about 20 KiB with the default window).
 */
public final class RealTimeMonitor {
    private final RealTimeFlowMonitor flow;

    /**
     * @param duplicateWindow sequence numbers remembered below the highest for duplicate suppression:
     *     a power of two of at least 64
     * @throws IllegalArgumentException for a bad window
     */
    public RealTimeMonitor(int duplicateWindow) {
        // The flow monitor's own deadline is unused: this monitor is always told whether a packet is late.
        this.flow = new RealTimeFlowMonitor(RealTimeConfig.builder().duplicateWindow(duplicateWindow)
                .lateDeadline(Duration.ofDays(1)).build());
    }

    /**
     * Records an arrival.
     *
     * @param sequence the stream's 32-bit sequence number (it may wrap)
     * @param sendTimeNanos the sender's send time stamp, on its clock
     * @param late whether the packet missed its deadline
     * @param recovered whether a link resent it on the way
     * @return false for a copy already seen, which must not be delivered again
     */
    public boolean onPacket(long sequence, long sendTimeNanos, long nowNanos, boolean late, boolean recovered) {
        return flow.onPacket(sequence, sendTimeNanos, nowNanos, late, recovered);
    }

    /** When a packet (a duplicate included) last arrived; {@link Long#MIN_VALUE} before the first. */
    public long lastArrivalNanos() {
        return flow.lastArrivalNanos();
    }

    public RealTimeStatistics statistics() {
        RealTimeFlowStatistics s = flow.snapshot("", 0, 0);
        return new RealTimeStatistics(s.received(), s.lost(), s.late(), s.duplicates(), s.recovered(),
                s.minDelayNanos(), s.meanDelayNanos(), s.p50DelayNanos(), s.p99DelayNanos(), s.maxDelayNanos(),
                s.jitterNanos());
    }
}
