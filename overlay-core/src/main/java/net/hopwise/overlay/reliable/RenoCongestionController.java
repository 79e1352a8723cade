package net.hopwise.overlay.reliable;

/**
 * TCP's congestion control as RFC 5681 describes it, counted in packets (the Spines link protocol
 * counts packets too): slow start below the threshold, congestion avoidance (one packet per window
 * acknowledged) above it, halving on a congestion event (NewReno: once per window of data, which the
 * sender enforces), and back to one packet after a retransmission timeout.
 */
public final class RenoCongestionController implements CongestionController {
    /** RFC 5681 section 3.1: a congestion window never goes below two packets except after a timeout. */
    private static final double MIN_THRESHOLD = 2;

    private final int maxWindow;
    private double window;
    private double threshold;

    /**
     * @param initialWindow packets allowed before the first acknowledgement
     * @param maxWindow cap on the window (and the initial threshold, so slow start runs until loss)
     */
    public RenoCongestionController(int initialWindow, int maxWindow) {
        if (initialWindow < 1 || maxWindow < initialWindow) {
            throw new IllegalArgumentException("need 1 <= initialWindow <= maxWindow, got " + initialWindow
                    + " and " + maxWindow);
        }
        this.maxWindow = maxWindow;
        this.window = initialWindow;
        this.threshold = maxWindow;
    }

    /** The default factory: RFC 3390's initial window of four full-size packets. */
    public static CongestionController.Factory factory() {
        return max -> new RenoCongestionController(Math.min(4, max), max);
    }

    @Override
    public int window() {
        return Math.max(1, (int) window);
    }

    @Override
    public int slowStartThreshold() {
        return (int) threshold;
    }

    @Override
    public void onAcknowledged(int packets, long rttNanos, boolean windowLimited, long nowNanos) {
        if (!windowLimited || packets <= 0) {
            return;
        }
        double left = packets;
        if (window < threshold) {
            double slowStart = Math.min(left, threshold - window);
            window += slowStart;
            left -= slowStart;
        }
        if (left > 0) {
            window += left / window;
        }
        window = Math.min(window, maxWindow);
    }

    @Override
    public void onLoss(long nowNanos) {
        threshold = Math.max(window / 2, MIN_THRESHOLD);
        window = threshold;
    }

    @Override
    public void onTimeout(long nowNanos) {
        threshold = Math.max(window / 2, MIN_THRESHOLD);
        window = 1;
    }

    @Override
    public String toString() {
        return "Reno[cwnd=" + String.format("%.1f", window) + " ssthresh=" + String.format("%.1f", threshold) + "]";
    }
}
