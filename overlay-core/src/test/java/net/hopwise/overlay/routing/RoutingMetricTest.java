package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RoutingMetricTest {
    private final RoutingConfig config = RoutingConfig.defaults();

    /** The digest's test vectors (section 2.6): Tmax = 100 ms, Δ = 2 ms. */
    @ParameterizedTest(name = "T = {0} us, p = {1} ppm -> {2} ms")
    @CsvSource({
        "10000,      0, 10.000",
        "10000,  10000, 10.233",
        "10000,  20000, 10.493",
        "10000,  50000, 11.415",
        "10000, 100000, 13.356",
        "30000,  50000, 33.137",
    })
    void expectedLatencyMatchesTheThesisVectors(int latencyMicros, int lossPpm, double millis) {
        double cost = RoutingMetric.EXPECTED_LATENCY.linkCost(new LinkCost(latencyMicros, lossPpm), config);
        assertThat(cost).isCloseTo(millis, within(0.001));
    }

    @Test
    void expectedLatencyUsesTheConfiguredDeadlineAndDelta() {
        RoutingConfig other = RoutingConfig.builder()
                .expectedLatencyDeadlineMillis(200)
                .expectedLatencyDeltaMillis(5)
                .build();
        double p = 0.05;
        double t = 10;
        double formula = (1 - p) * t + (p - 2 * p * p + 3 * p * p * p) * (3 * t + 5) + (2 * p * p - 3 * p * p * p) * 200;
        assertThat(RoutingMetric.EXPECTED_LATENCY.linkCost(new LinkCost(10_000, 50_000), other)).isCloseTo(formula, within(1e-12));
    }

    @Test
    void expectedLatencyNeverFallsAsLossRisesNorBelowLatency() {
        for (int latency : new int[] {0, 1_000, 10_000, 30_000, 150_000}) {
            double previous = 0;
            for (int ppm = 0; ppm <= LinkCost.MAX_LOSS_PPM; ppm += 1_000) {
                double cost = RoutingMetric.EXPECTED_LATENCY.linkCost(new LinkCost(latency, ppm), config);
                assertThat(cost).as("T=%d us p=%d ppm", latency, ppm).isGreaterThanOrEqualTo(previous).isGreaterThanOrEqualTo(latency / 1000.0);
                previous = cost;
            }
        }
    }

    @Test
    void otherMetrics() {
        LinkCost c = new LinkCost(12_345, 100_000);
        assertThat(RoutingMetric.HOPS.linkCost(c, config)).isEqualTo(1.0);
        assertThat(RoutingMetric.LATENCY.linkCost(c, config)).isCloseTo(12.345, within(1e-12));
        assertThat(RoutingMetric.LOSS.linkCost(c, config)).isCloseTo(-Math.log(0.9), within(1e-12));
        assertThat(RoutingMetric.LOSS.linkCost(new LinkCost(0, 0), config)).isZero();
        assertThat(RoutingMetric.LOSS.linkCost(new LinkCost(0, LinkCost.MAX_LOSS_PPM), config)).isInfinite();
    }

    @Test
    void linkCostRejectsOutOfRangeValues() {
        assertThatThrownBy(() -> new LinkCost(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LinkCost(0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LinkCost(0, 1_000_001)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new LinkCost(0, 250_000).lossRate()).isEqualTo(0.25);
    }
}
