package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

/** Streaming delay statistics agree with exact ones computed from every sample. */
class DelayStatisticsTest {
    private static final long MS = 1_000_000L;

    @Property(tries = 30)
    void meanDeviationThresholdsAndQuantilesMatchTheExactValues(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 20_000) int n) {
        SplittableRandom random = new SplittableRandom(seed);
        DelayStatistics stats = new DelayStatistics(60 * MS, 100 * MS);
        long[] samples = new long[n];
        for (int i = 0; i < n; i++) {
            // Mostly 50 ms, with a heavy tail up to seconds, like delays behind a TCP timeout.
            samples[i] = 50 * MS + (random.nextInt(10) == 0 ? random.nextLong(2_000 * MS) : random.nextLong(5 * MS));
            stats.add(samples[i]);
        }
        double mean = Arrays.stream(samples).average().orElseThrow();
        double var = Arrays.stream(samples).mapToDouble(s -> (s - mean) * (s - mean)).sum() / (n - 1);
        assertThat(stats.count()).isEqualTo(n);
        assertThat(stats.meanMillis()).isCloseTo(mean / MS, within(1e-6));
        assertThat(stats.stdDevMillis()).isCloseTo(Math.sqrt(var) / MS, within(1e-6));
        assertThat(stats.fractionAbove(0)).isEqualTo(Arrays.stream(samples).filter(s -> s > 60 * MS).count() / (double) n);
        assertThat(stats.fractionAbove(1)).isEqualTo(Arrays.stream(samples).filter(s -> s > 100 * MS).count() / (double) n);
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        for (double q : new double[] {0.5, 0.9, 0.99}) {
            long exact = sorted[(int) Math.ceil(q * n) - 1];
            assertThat(stats.quantileMillis(q)).as("q%s", q).isCloseTo(exact / 1e6, Percentage.withPercentage(1.7));
        }
    }

    @Test
    void mergingEqualsAddingEverythingToOne() {
        DelayStatistics all = new DelayStatistics(60 * MS);
        DelayStatistics a = new DelayStatistics(60 * MS);
        DelayStatistics b = new DelayStatistics(60 * MS);
        for (int i = 0; i < 1000; i++) {
            long d = (i * 7919L % 1000) * MS / 10;
            all.add(d);
            (i % 3 == 0 ? a : b).add(d);
        }
        a.merge(b);
        assertThat(a.count()).isEqualTo(all.count());
        assertThat(a.meanMillis()).isCloseTo(all.meanMillis(), within(1e-9));
        assertThat(a.stdDevMillis()).isCloseTo(all.stdDevMillis(), within(1e-9));
        assertThat(a.fractionAbove(0)).isEqualTo(all.fractionAbove(0));
        assertThat(a.quantileMillis(0.5)).isEqualTo(all.quantileMillis(0.5));
    }

    @Test
    void bucketsAreContiguousAndBoundTheirValues() {
        int previous = -1;
        for (long micros = 0; micros < 5_000_000; micros += 1 + micros / 300) {
            int b = DelayStatistics.bucketOf(micros);
            assertThat(b).isGreaterThanOrEqualTo(previous);
            assertThat(DelayStatistics.upperMicrosOf(b)).isGreaterThanOrEqualTo(micros);
            previous = b;
        }
    }
}
