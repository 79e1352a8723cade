package net.hopwise.overlay.sim;

import java.util.Arrays;

/**
 * Streaming statistics of message delays, in fixed memory however many samples arrive: count,
 * mean and standard deviation (Welford's update, numerically stable over millions of samples),
 * extremes, the share above chosen thresholds (exact), and quantiles from a log-linear histogram
 * (64 sub-buckets per power of two of microseconds above 128 us: within 1.6% of the true value).
 */
public final class DelayStatistics {
    private static final int SUB_BUCKET_BITS = 7;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    /** Powers of two of microseconds covered: up to 2^40 us, about 12 days. */
    private static final int MAGNITUDES = 40;

    private final long[] thresholdsNanos;
    private final long[] aboveThreshold;
    private final long[] buckets = new long[(MAGNITUDES + 1) * SUB_BUCKETS];
    private long count;
    private double mean;
    private double m2;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    /** @param thresholdsNanos delays whose exceedance is counted exactly (for example 60 and 100 ms) */
    public DelayStatistics(long... thresholdsNanos) {
        this.thresholdsNanos = thresholdsNanos.clone();
        this.aboveThreshold = new long[thresholdsNanos.length];
    }

    public void add(long delayNanos) {
        count++;
        double delta = delayNanos - mean;
        mean += delta / count;
        m2 += delta * (delayNanos - mean);
        min = Math.min(min, delayNanos);
        max = Math.max(max, delayNanos);
        for (int i = 0; i < thresholdsNanos.length; i++) {
            if (delayNanos > thresholdsNanos[i]) {
                aboveThreshold[i]++;
            }
        }
        buckets[bucketOf(Math.max(0, delayNanos) / 1000)]++;
    }

    public long count() {
        return count;
    }

    public double meanMillis() {
        return mean / 1e6;
    }

    /** Standard deviation of the delay (the papers' "jitter"), in milliseconds. */
    public double stdDevMillis() {
        return count < 2 ? 0 : Math.sqrt(m2 / (count - 1)) / 1e6;
    }

    public double minMillis() {
        return count == 0 ? 0 : min / 1e6;
    }

    public double maxMillis() {
        return count == 0 ? 0 : max / 1e6;
    }

    /** The share (0-1) of samples above the {@code i}th threshold given at construction. */
    public double fractionAbove(int i) {
        return count == 0 ? 0 : (double) aboveThreshold[i] / count;
    }

    /** The {@code q} quantile (0-1) in milliseconds, within the histogram's 1.6%. */
    public double quantileMillis(double q) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * count));
        long seen = 0;
        for (int b = 0; b < buckets.length; b++) {
            seen += buckets[b];
            if (seen >= rank) {
                return Math.min(max / 1e6, upperMicrosOf(b) / 1e3);
            }
        }
        return max / 1e6;
    }

    /** Adds another accumulator's samples to this one (thresholds must match). */
    public void merge(DelayStatistics other) {
        if (!Arrays.equals(thresholdsNanos, other.thresholdsNanos)) {
            throw new IllegalArgumentException("thresholds differ");
        }
        if (other.count == 0) {
            return;
        }
        long n = count + other.count;
        double delta = other.mean - mean;
        m2 = m2 + other.m2 + delta * delta * count * other.count / n;
        mean = mean + delta * other.count / n;
        count = n;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        for (int i = 0; i < aboveThreshold.length; i++) {
            aboveThreshold[i] += other.aboveThreshold[i];
        }
        for (int b = 0; b < buckets.length; b++) {
            buckets[b] += other.buckets[b];
        }
    }

    static int bucketOf(long micros) {
        if (micros < SUB_BUCKETS) {
            return (int) micros;
        }
        int magnitude = 63 - Long.numberOfLeadingZeros(micros) - SUB_BUCKET_BITS + 1;
        if (magnitude > MAGNITUDES) {
            return (MAGNITUDES + 1) * SUB_BUCKETS - 1;
        }
        int sub = (int) (micros >>> magnitude) - SUB_BUCKETS / 2;
        return magnitude * SUB_BUCKETS / 2 + SUB_BUCKETS / 2 + sub;
    }

    static long upperMicrosOf(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int magnitude = (bucket - SUB_BUCKETS / 2) / (SUB_BUCKETS / 2);
        int sub = (bucket - SUB_BUCKETS / 2) % (SUB_BUCKETS / 2);
        return ((long) (sub + SUB_BUCKETS / 2 + 1) << magnitude) - 1;
    }
}
