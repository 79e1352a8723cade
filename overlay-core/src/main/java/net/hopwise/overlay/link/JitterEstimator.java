package net.hopwise.overlay.link;

/**
 * RFC 3550 inter-arrival jitter of the peer's hellos: {@code J += (|D| - J) / 16}, where D is the
 * change in transit time (arrival on our clock minus send time on the peer's) between successive
 * hellos. Only differences of transit times enter, so the clock offset between the nodes cancels.
 */
final class JitterEstimator {
    private boolean hasTransit;
    private long lastTransit;
    private double jitter;

    /** Returns true when the estimate was updated (every hello but the first after a reset). */
    boolean onArrival(long sendTimeNanos, long arrivalNanos) {
        // Wrapping subtraction: clocks with far-apart origins overflow here, and cancel in D.
        long transit = arrivalNanos - sendTimeNanos;
        boolean updated = hasTransit;
        if (hasTransit) {
            double d = Math.abs((double) (transit - lastTransit));
            jitter += (d - jitter) / 16.0;
        }
        hasTransit = true;
        lastTransit = transit;
        return updated;
    }

    /** The peer's clock may have a new origin (it restarted): the next D would be meaningless. */
    void forgetTransit() {
        hasTransit = false;
    }

    void reset() {
        hasTransit = false;
        jitter = 0;
    }

    long jitterNanos() {
        return Math.round(jitter);
    }
}
