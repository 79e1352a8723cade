package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The events a second averaged over more loss intervals ({@link EraConfig.Builder#lossEventIntervals}):
 * beside one TCP flow a session meets some 0.6 overflows a second at instants no schedule fixes, and
 * eight intervals' mean of such a count swings by a third around it. Virtual time: packets carry
 * their send times; the overflows are a seeded Poisson process.
 */
class LossEventIntervalsTest {
    private static final long MS = 1_000_000L;
    private static final long RTT = 150 * MS;
    private static final double EVENTS_A_SECOND = 0.6;
    private static final long[] SEEDS = {1, 2, 3, 4, 5};

    /**
     * One layer of pairs every 10 ms for 600 s, the pair sent first after each overflow lost whole;
     * the history's events a second read once a second after the first minute, and last the events
     * it counted a second (overflows within two round trips of the last are one episode).
     */
    private static double[] readings(int intervals, long seed) {
        LossHistory h = new LossHistory(1, () -> 1000, 2, true, true, 0, intervals);
        Random random = new Random(seed);
        double nextOverflow = -Math.log(1 - random.nextDouble()) / EVENTS_A_SECOND * 1e9;
        double[] out = new double[541];
        long seq = 0;
        for (long t = 0; t < 600_000 * MS; t += 10 * MS, seq += 2) {
            if (t >= nextOverflow) {
                nextOverflow += -Math.log(1 - random.nextDouble()) / EVENTS_A_SECOND * 1e9;
                continue;
            }
            h.onPacket(0, seq, t, 2, RTT);
            h.onPacket(0, seq + 1, t, 2, RTT);
            if (t >= 60_000 * MS && t % (1000 * MS) == 0) {
                out[(int) (t / (1000 * MS)) - 60] = h.eventsPerSecond();
            }
        }
        out[540] = h.events() / 600.0;
        return out;
    }

    /** Standard deviation over mean. */
    private static double spread(double[] x) {
        double mean = mean(x);
        double sq = 0;
        for (double v : x) {
            sq += (v - mean) * (v - mean);
        }
        return Math.sqrt(sq / (x.length - 1)) / mean;
    }

    private static double mean(double[] x) {
        double sum = 0;
        for (double v : x) {
            sum += v;
        }
        return sum / x.length;
    }

    @Test
    void thirtyTwoIntervalsHalveTheSwingOfEightAroundTheSameCount() {
        for (long seed : SEEDS) {
            double[] eight = readings(8, seed);
            double[] thirtyTwo = readings(32, seed);
            double counted = eight[540];
            eight = java.util.Arrays.copyOf(eight, 540);
            thirtyTwo = java.util.Arrays.copyOf(thirtyTwo, 540);
            String s = "seed " + seed;
            // Both read the events the history counted (0.8-0.9 of the overflows: some fall in one episode).
            assertThat(counted).as(s).isBetween(0.7 * EVENTS_A_SECOND, 0.95 * EVENTS_A_SECOND);
            assertThat(mean(eight)).as(s).isCloseTo(counted, within(0.1 * counted));
            assertThat(mean(thirtyTwo)).as(s).isCloseTo(counted, within(0.1 * counted));
            // About 1 / sqrt(7) and 1 / sqrt(27), the weights' effective counts, for a Poisson count.
            assertThat(spread(eight)).as(s).isGreaterThan(0.26);
            assertThat(spread(thirtyTwo)).as(s).isLessThan(0.23).isLessThan(0.7 * spread(eight));
        }
    }

    @Test
    void eightIntervalsAreTfrcsWeights() {
        assertThat(LossHistory.weights(8)).containsExactly(1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2);
        double[] w = LossHistory.weights(32);
        assertThat(w[15]).isEqualTo(1.0);
        assertThat(w[16]).isCloseTo(32.0 / 34, within(1e-12));
        assertThat(w[31]).isCloseTo(2.0 / 34, within(1e-12));
    }

    @Test
    void theSettingReachesTheConfigAndRefusesNone() {
        EraConfig c = EraConfig.recommended().toBuilder().lossEventIntervals(32).build();
        assertThat(c.lossEventIntervals()).isEqualTo(32);
        assertThat(c.toBuilder().build().lossEventIntervals()).isEqualTo(32);
        assertThat(EraConfig.recommended().lossEventIntervals()).isEqualTo(EraConfig.DEFAULT_LOSS_EVENT_INTERVALS);
        assertThatThrownBy(() -> EraConfig.builder().lossEventIntervals(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
