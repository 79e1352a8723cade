package net.hopwise.examples.bench;

import java.util.Arrays;

/** Round-trip times in nanoseconds, summarised as percentiles and a mean in microseconds. */
final class LatencySamples {
    private final long[] sorted;

    LatencySamples(long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        this.sorted = nanos.clone();
        Arrays.sort(sorted);
    }

    /** All samples of several runs of one configuration together. */
    static LatencySamples pooled(java.util.List<LatencySamples> runs) {
        int total = 0;
        for (LatencySamples r : runs) {
            total += r.sorted.length;
        }
        long[] all = new long[total];
        int at = 0;
        for (LatencySamples r : runs) {
            System.arraycopy(r.sorted, 0, all, at, r.sorted.length);
            at += r.sorted.length;
        }
        return new LatencySamples(all);
    }

    int count() {
        return sorted.length;
    }

    /** The nearest-rank percentile, in microseconds. */
    double percentileMicros(double p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        int index = Math.min(sorted.length - 1, Math.max(0, rank - 1));
        return sorted[index] / 1_000.0;
    }

    double meanMicros() {
        double sum = 0;
        for (long v : sorted) {
            sum += v;
        }
        return sum / sorted.length / 1_000.0;
    }

    double maxMicros() {
        return sorted[sorted.length - 1] / 1_000.0;
    }
}
