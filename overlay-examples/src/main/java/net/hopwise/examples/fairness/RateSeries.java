package net.hopwise.examples.fairness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A flow's cumulative byte count sampled over a measured window, and the rates it implies: the mean
 * over the whole window (bytes over time, so uneven sampling does not bias it) and the rate of each
 * interval between samples, whose spread shows how steady the flow was.
 */
final class RateSeries {
    private final List<long[]> samples = new ArrayList<>();

    /**
     * Adds a sample.
     *
     * @throws IllegalArgumentException when time does not advance or the count goes down
     */
    void add(long nanos, long cumulativeBytes) {
        if (!samples.isEmpty()) {
            long[] last = samples.get(samples.size() - 1);
            if (nanos <= last[0] || cumulativeBytes < last[1]) {
                throw new IllegalArgumentException("samples must advance in time and never lose bytes: (" + last[0]
                        + ", " + last[1] + ") then (" + nanos + ", " + cumulativeBytes + ")");
            }
        }
        samples.add(new long[] {nanos, cumulativeBytes});
    }

    int intervals() {
        return Math.max(0, samples.size() - 1);
    }

    /** Bytes counted between the first and the last sample. */
    long bytes() {
        return samples.size() < 2 ? 0 : samples.get(samples.size() - 1)[1] - samples.get(0)[1];
    }

    double seconds() {
        return samples.size() < 2 ? 0 : (samples.get(samples.size() - 1)[0] - samples.get(0)[0]) / 1e9;
    }

    /** Mean rate over the window in Mbit/s; NaN with fewer than two samples. */
    double meanMbit() {
        return samples.size() < 2 ? Double.NaN : bytes() * 8 / seconds() / 1e6;
    }

    /** The rate of each interval between consecutive samples, in Mbit/s. */
    double[] intervalMbit() {
        double[] rates = new double[intervals()];
        for (int i = 0; i < rates.length; i++) {
            long[] a = samples.get(i);
            long[] b = samples.get(i + 1);
            rates[i] = (b[1] - a[1]) * 8 / ((b[0] - a[0]) / 1e9) / 1e6;
        }
        return rates;
    }

    /** Standard deviation of the interval rates (population), in Mbit/s; NaN without intervals. */
    double stddevMbit() {
        double[] r = intervalMbit();
        if (r.length == 0) {
            return Double.NaN;
        }
        double mean = Arrays.stream(r).average().orElseThrow();
        double v = 0;
        for (double x : r) {
            v += (x - mean) * (x - mean);
        }
        return Math.sqrt(v / r.length);
    }

    double minMbit() {
        return Arrays.stream(intervalMbit()).min().orElse(Double.NaN);
    }

    double maxMbit() {
        return Arrays.stream(intervalMbit()).max().orElse(Double.NaN);
    }
}
