package net.hopwise.admin.overlay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One link's samples for the charts: the latest at full resolution, and every sample also folded
 * into coarse buckets that reach much further back, so an hour of history costs a few hundred
 * points per link instead of thousands.
 *
 * <p>Time is the samples' own: nothing here reads a clock. Thread-safe: the sampler adds while
 * request threads read.
 */
final class LinkSeries {
    private final int fineCapacity;
    private final long bucketMillis;
    private final int bucketCapacity;
    private final ArrayDeque<LinkHistory.Sample> fine = new ArrayDeque<>();
    private final ArrayDeque<LinkHistory.Sample> buckets = new ArrayDeque<>();
    private Mean open;
    private long openBucket;

    /**
     * @param fineCapacity samples kept at full resolution
     * @param bucket the span of one coarse point
     * @param bucketCapacity coarse points kept
     */
    LinkSeries(int fineCapacity, Duration bucket, int bucketCapacity) {
        if (fineCapacity < 1 || bucketCapacity < 1 || bucket.toMillis() < 1) {
            throw new IllegalArgumentException("capacities and bucket must be positive: " + fineCapacity + ", "
                    + bucket + ", " + bucketCapacity);
        }
        this.fineCapacity = fineCapacity;
        this.bucketMillis = bucket.toMillis();
        this.bucketCapacity = bucketCapacity;
    }

    synchronized void add(LinkHistory.Sample s) {
        fine.addLast(s);
        while (fine.size() > fineCapacity) {
            fine.removeFirst();
        }
        long bucket = Math.floorDiv(s.time().toEpochMilli(), bucketMillis);
        if (open != null && bucket != openBucket) {
            buckets.addLast(open.sample());
            while (buckets.size() > bucketCapacity) {
                buckets.removeFirst();
            }
            open = null;
        }
        if (open == null) {
            open = new Mean();
            openBucket = bucket;
        }
        open.add(s);
    }

    /** The last {@code limit} samples at full resolution, oldest first. */
    synchronized List<LinkHistory.Sample> latest(int limit) {
        List<LinkHistory.Sample> all = List.copyOf(fine);
        return all.subList(Math.max(0, all.size() - limit), all.size());
    }

    /** Every point kept: coarse ones where the full-resolution samples no longer reach, oldest first. */
    synchronized List<LinkHistory.Sample> all() {
        List<LinkHistory.Sample> out = new ArrayList<>();
        Instant firstFine = fine.isEmpty() ? Instant.MAX : fine.peekFirst().time();
        for (LinkHistory.Sample b : buckets) {
            if (b.time().isBefore(firstFine)) {
                out.add(b);
            }
        }
        out.addAll(fine);
        return out;
    }

    /**
     * The points from {@code since} on, at most {@code maxPoints}: where there are more, each
     * equal slice of the time from {@code since} to {@code until} becomes the mean of its points.
     */
    List<LinkHistory.Sample> window(Instant since, Instant until, int maxPoints) {
        if (maxPoints < 1) {
            throw new IllegalArgumentException("maxPoints must be positive, got " + maxPoints);
        }
        List<LinkHistory.Sample> points = all().stream().filter(p -> !p.time().isBefore(since)).toList();
        if (points.size() <= maxPoints) {
            return points;
        }
        double slice = Math.max(1, Duration.between(since, until).toMillis()) / (double) maxPoints;
        List<LinkHistory.Sample> out = new ArrayList<>();
        Mean mean = null;
        long current = -1;
        for (LinkHistory.Sample p : points) {
            long index = Math.min(maxPoints - 1,
                    (long) (Duration.between(since, p.time()).toMillis() / slice));
            if (mean != null && index != current) {
                out.add(mean.sample());
                mean = null;
            }
            if (mean == null) {
                mean = new Mean();
                current = index;
            }
            mean.add(p);
        }
        out.add(mean.sample());
        return out;
    }

    /**
     * The mean of several samples: their mean time and figures (a missing figure is left out, and
     * stays missing only when every sample lacks it), and the worst state any of them had, so a
     * link that went down for a moment still shows down.
     */
    private static final class Mean {
        private int count;
        private long millis;
        private LinkState state;
        private final double[] sums = new double[4];
        private final int[] counts = new int[4];

        void add(LinkHistory.Sample s) {
            count++;
            millis += s.time().toEpochMilli();
            if (state == null || s.state().compareTo(state) > 0) {
                state = s.state();
            }
            add(0, s.rttMs());
            add(1, s.jitterMs());
            add(2, s.lossRate());
            add(3, s.throughputBps());
        }

        private void add(int i, Double v) {
            if (v != null) {
                sums[i] += v;
                counts[i]++;
            }
        }

        private Double get(int i) {
            return counts[i] == 0 ? null : sums[i] / counts[i];
        }

        LinkHistory.Sample sample() {
            return new LinkHistory.Sample(Instant.ofEpochMilli(Math.floorDiv(millis, count)), state, get(0), get(1),
                    get(2), get(3));
        }
    }
}
