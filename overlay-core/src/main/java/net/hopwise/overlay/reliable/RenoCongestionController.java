package net.hopwise.overlay.reliable;

/**
 * TCP's congestion control as RFC 5681 describes it, counted in bytes with appropriate byte
 * counting (RFC 3465, limit L = 2 segments per acknowledgement in slow start): slow start below the
 * threshold, congestion avoidance (one segment per window acknowledged) above it, halving on a
 * congestion event (NewReno: once per window of data, which the sender enforces), and back to one
 * segment after a retransmission timeout. With the default segment of 1500 bytes on the wire the
 * window grows as a TCP flow's over an Ethernet path does, whatever the size of the overlay's
 * packets.
 */
public final class RenoCongestionController implements CongestionController {
    /** RFC 3465's L: slow start grows by at most two segments per acknowledgement. */
    private static final int SLOW_START_LIMIT_SEGMENTS = 2;

    private final long maxWindow;
    private final int segment;
    private double window;
    private double threshold;
    /** Window and threshold before the last timeout, for undoing it; NaN when there is none to undo. */
    private double windowBeforeTimeout = Double.NaN;
    private double thresholdBeforeTimeout;

    /**
     * @param initialWindow bytes allowed before the first acknowledgement
     * @param maxWindow cap on the window (and the initial threshold, so slow start runs until loss)
     * @param segmentBytes the full-size segment
     */
    public RenoCongestionController(long initialWindow, long maxWindow, int segmentBytes) {
        if (segmentBytes < 1 || initialWindow < segmentBytes || maxWindow < initialWindow) {
            throw new IllegalArgumentException("need 1 <= segment <= initialWindow <= maxWindow, got " + segmentBytes
                    + ", " + initialWindow + " and " + maxWindow);
        }
        this.maxWindow = maxWindow;
        this.segment = segmentBytes;
        this.window = initialWindow;
        this.threshold = maxWindow;
    }

    /** The default factory: RFC 3390's initial window, min(4 segments, max(2 segments, 4380 bytes)). */
    public static CongestionController.Factory factory() {
        return (max, segment) -> {
            long initial = Math.min(4L * segment, Math.max(2L * segment, 4380));
            return new RenoCongestionController(Math.min(initial, Math.max(max, segment)), Math.max(max, segment),
                    segment);
        };
    }

    @Override
    public long window() {
        return Math.max(segment, (long) window);
    }

    @Override
    public long slowStartThreshold() {
        return (long) threshold;
    }

    @Override
    public void onAcknowledged(long bytes, long rttNanos, boolean windowLimited, long nowNanos) {
        if (!windowLimited || bytes <= 0) {
            return;
        }
        double left = bytes;
        if (window < threshold) {
            double slowStart = Math.min(Math.min(left, (double) SLOW_START_LIMIT_SEGMENTS * segment),
                    threshold - window);
            window += slowStart;
            left -= slowStart;
        }
        if (left > 0 && window >= threshold) {
            window += (double) segment * left / window;
        }
        window = Math.min(window, maxWindow);
    }

    @Override
    public void onLoss(long nowNanos) {
        threshold = Math.max(window / 2, 2.0 * segment); // RFC 5681 (4): never below two segments
        window = threshold;
    }

    @Override
    public void onTimeout(long nowNanos) {
        if (Double.isNaN(windowBeforeTimeout) || window > segment) {
            // Backed-off timeouts in a row (the window still one segment): undoing goes back to
            // before the first of them.
            windowBeforeTimeout = window;
            thresholdBeforeTimeout = threshold;
        }
        threshold = Math.max(window / 2, 2.0 * segment);
        window = segment;
    }

    /** RFC 4015's response: the window and threshold from before the timeout. */
    @Override
    public void onSpuriousTimeout(long nowNanos) {
        if (!Double.isNaN(windowBeforeTimeout)) {
            window = Math.max(window, windowBeforeTimeout);
            threshold = thresholdBeforeTimeout;
            windowBeforeTimeout = Double.NaN;
        }
    }

    @Override
    public String toString() {
        return "Reno[cwnd=" + (long) window + " B ssthresh=" + (long) threshold + " B segment=" + segment + " B]";
    }
}
