package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RateSeriesTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void intervalRatesAndTheirSpread() {
        RateSeries s = new RateSeries();
        s.add(10 * SECOND, 5_000_000);
        s.add(11 * SECOND, 5_000_000 + 1_000_000); // 8 Mbit/s
        s.add(12 * SECOND, 6_000_000 + 3_000_000); // 24 Mbit/s
        assertThat(s.intervals()).isEqualTo(2);
        assertThat(s.intervalMbit()).containsExactly(new double[] {8, 24}, within(1e-9));
        assertThat(s.meanMbit()).isCloseTo(16, within(1e-9));
        assertThat(s.stddevMbit()).isCloseTo(8, within(1e-9));
        assertThat(s.minMbit()).isEqualTo(8, within(1e-9));
        assertThat(s.maxMbit()).isEqualTo(24, within(1e-9));
        assertThat(s.bytes()).isEqualTo(4_000_000);
        assertThat(s.seconds()).isEqualTo(2.0);
    }

    @Test
    void theMeanWeighsIntervalsByTheirLengthNotTheirCount() {
        RateSeries s = new RateSeries();
        s.add(0, 0);
        s.add(SECOND / 2, 0); // idle for half a second
        s.add(2 * SECOND, 3_000_000); // 3 MB in 1.5 s
        // 24 Mbit over 2 s is 12 Mbit/s; the mean of the interval rates (0 and 16) would say 8.
        assertThat(s.meanMbit()).isCloseTo(12, within(1e-9));
    }

    @Test
    void oneSampleHasNoRate() {
        RateSeries s = new RateSeries();
        s.add(SECOND, 100);
        assertThat(s.meanMbit()).isNaN();
        assertThat(s.stddevMbit()).isNaN();
        assertThat(s.intervalMbit()).isEmpty();
        assertThat(s.bytes()).isZero();
    }

    @Test
    void samplesMustMoveForward() {
        RateSeries s = new RateSeries();
        s.add(SECOND, 100);
        assertThatThrownBy(() -> s.add(SECOND, 200)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.add(2 * SECOND, 50)).hasMessageContaining("never lose bytes");
    }
}
