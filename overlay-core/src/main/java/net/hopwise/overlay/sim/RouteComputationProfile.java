package net.hopwise.overlay.sim;

/** Wall-clock cost of the engine calls that recomputed routes: count, total and maximum. */
public final class RouteComputationProfile {
    private long count;
    private long totalNanos;
    private long maxNanos;

    void add(long nanos) {
        count++;
        totalNanos += nanos;
        maxNanos = Math.max(maxNanos, nanos);
    }

    public long count() {
        return count;
    }

    public double meanMillis() {
        return count == 0 ? 0 : totalNanos / 1e6 / count;
    }

    public double maxMillis() {
        return maxNanos / 1e6;
    }

    /** A copy of the figures so far, unaffected by later measurements or resets. */
    public RouteComputationProfile snapshot() {
        RouteComputationProfile copy = new RouteComputationProfile();
        copy.count = count;
        copy.totalNanos = totalNanos;
        copy.maxNanos = maxNanos;
        return copy;
    }

    /** Forgets what was measured, for example after a warm-up. */
    public void reset() {
        count = 0;
        totalNanos = 0;
        maxNanos = 0;
    }
}
