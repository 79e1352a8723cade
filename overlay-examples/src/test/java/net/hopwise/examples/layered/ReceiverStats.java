package net.hopwise.examples.layered;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.multicast.layered.LayeredPacket;

/** What one layered receiver got: bytes per second, losses from sequence gaps, and its level over time. */
final class ReceiverStats {
    private static final long SECOND = 1_000_000_000L;
    private static final boolean LOSS_TRACE = Boolean.getBoolean("layered.losstrace");
    private final long[] expected;
    private final boolean[] synced;
    private final List<long[]> levels = new ArrayList<>();
    private long[] bytesPerSecond = new long[64];
    private long[] packetsPerSecond = new long[64];
    private long[] lossesPerSecond = new long[64];
    long joinedAt = -1;
    long packets;
    long losses;

    /** @param groups the groups (layers) a receiver may hold, numbered from 0 */
    ReceiverStats(int groups) {
        this.expected = new long[groups];
        this.synced = new boolean[groups];
        levels.add(new long[] {0, -1});
    }

    void levelChanged(int level, long now) {
        levels.add(new long[] {now, level});
    }

    void forget(int layer) {
        synced[layer] = false;
    }

    void received(LayeredPacket p, int bytes, long now) {
        int s = (int) (now / SECOND);
        if (s >= bytesPerSecond.length) {
            int n = Math.max(s + 1, bytesPerSecond.length * 2);
            bytesPerSecond = java.util.Arrays.copyOf(bytesPerSecond, n);
            packetsPerSecond = java.util.Arrays.copyOf(packetsPerSecond, n);
            lossesPerSecond = java.util.Arrays.copyOf(lossesPerSecond, n);
        }
        packetsPerSecond[s]++;
        bytesPerSecond[s] += bytes;
        packets++;
        int j = p.layer();
        if (synced[j]) {
            long gap = (p.sequence() - expected[j]) & 0xFFFF_FFFFL;
            if (gap >= 0x8000_0000L) {
                return;
            }
            losses += gap;
            lossesPerSecond[s] += gap;
            // -Dlayered.losstrace=true: each gap as the receiver sees it, for traces of the worst second.
            if (gap > 0 && LOSS_TRACE) {
                System.out.printf(java.util.Locale.ROOT, "%.4f GAP layer %d lost %d (sent %.4f)%n", now / 1e9, j, gap,
                        p.sendTimeMicros() / 1e6);
            }
        }
        synced[j] = true;
        expected[j] = (p.sequence() + 1) & 0xFFFF_FFFFL;
    }

    /** Mean throughput in bit/s over whole seconds [from, to) of virtual time. */
    double throughput(long fromNanos, long toNanos) {
        long sum = 0;
        for (long s = fromNanos / SECOND; s < toNanos / SECOND && s < bytesPerSecond.length; s++) {
            sum += bytesPerSecond[(int) s];
        }
        return sum * 8.0 / ((toNanos / SECOND) - (fromNanos / SECOND));
    }

    /** Throughput of second {@code s} of virtual time, bit/s. */
    double throughputIn(int s) {
        return s < bytesPerSecond.length ? bytesPerSecond[s] * 8.0 : 0;
    }

    /** The level held at {@code now}. */
    int levelAt(long now) {
        int level = -1;
        for (long[] change : levels) {
            if (change[0] > now) {
                break;
            }
            level = (int) change[1];
        }
        return level;
    }

    /** The first instant from which the level stays within [level - slack, level] until {@code end}; -1 if never. */
    long settledAt(int level, int slack, long end) {
        long since = -1;
        for (long[] change : levels) {
            if (change[0] > end) {
                break;
            }
            boolean inside = change[1] <= level && change[1] >= level - slack;
            if (inside && since < 0) {
                since = change[0];
            } else if (!inside) {
                since = -1;
            }
        }
        return since;
    }

    /** The highest loss rate of any whole second in [from, to). */
    double peakLossRate(long fromNanos, long toNanos) {
        double peak = 0;
        for (long s = fromNanos / SECOND; s < toNanos / SECOND && s < bytesPerSecond.length; s++) {
            long total = packetsPerSecond[(int) s] + lossesPerSecond[(int) s];
            if (total > 0) {
                peak = Math.max(peak, (double) lossesPerSecond[(int) s] / total);
            }
        }
        return peak;
    }

    /** The whole second of {@link #peakLossRate}, seconds of the simulator's clock; -1 when no second lost anything. */
    long peakLossSecond(long fromNanos, long toNanos) {
        double peak = 0;
        long at = -1;
        for (long s = fromNanos / SECOND; s < toNanos / SECOND && s < bytesPerSecond.length; s++) {
            long total = packetsPerSecond[(int) s] + lossesPerSecond[(int) s];
            if (total > 0 && (double) lossesPerSecond[(int) s] / total > peak) {
                peak = (double) lossesPerSecond[(int) s] / total;
                at = s;
            }
        }
        return at;
    }

    double lossRate() {
        return packets + losses == 0 ? 0 : (double) losses / (packets + losses);
    }

    /** Level changes after {@code from}. */
    long changesAfter(long from) {
        return levels.stream().filter(c -> c[0] > from).count();
    }

    /**
     * The first instant in [from, to) at which {@code test} holds of the level, -1 if none: with
     * {@code test} a band around the optimal level, the convergence time as one reads it from the
     * thesis's graphs (the first arrival near the optimum; staying there is measured apart).
     */
    long firstLevel(java.util.function.IntPredicate test, long fromNanos, long toNanos) {
        if (test.test(levelAt(fromNanos))) {
            return fromNanos;
        }
        for (long[] change : levels) {
            if (change[0] > fromNanos && change[0] < toNanos && test.test((int) change[1])) {
                return change[0];
            }
        }
        return -1;
    }
}
