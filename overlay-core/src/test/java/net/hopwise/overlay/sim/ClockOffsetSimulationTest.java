package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;

/**
 * Real-time flows between nodes whose clocks are unrelated, as on machines booted at different
 * times: the destination reads each packet's send time on its own clock, so one-way delays and
 * lateness are what the path took, not the clocks' difference.
 */
class ClockOffsetSimulationTest {
    private static final long MS = 1_000_000;
    private static final long HOUR = 3_600_000 * MS;
    private static final int PORT = 9;

    /** Runs a real-time flow from {@code from} to {@code to} for 10 s; the destination's statistics. */
    private static RealTimeFlowStatistics flow(SimNetwork net, String from, String to, DelayStatistics truth) {
        net.start();
        net.runFor(Duration.ofSeconds(3));
        OverlayCbrFlow flow = new OverlayCbrFlow(net, 1, from, to, PORT, 160, RoutingMetric.EXPECTED_LATENCY, truth,
                OverlayCbrFlow.Service.REAL_TIME);
        flow.start(net.now(), 20 * MS, net.now() + 10_000 * MS);
        net.runFor(Duration.ofSeconds(11));
        List<RealTimeFlowStatistics> flows = net.engine(to).realTimeFlows(PORT);
        assertThat(flows).hasSize(1);
        assertThat(flows.get(0).received()).isEqualTo(flow.generated()).isEqualTo(500);
        return flows.get(0);
    }

    @Test
    void delaysAcrossTwoHopsAreThePathsWhateverTheThreeClocksSay() {
        try (SimNetwork net = new SimNetwork(11)) {
            net.node("a").clockOffsetNanos(72 * HOUR);
            net.node("b").clockOffsetNanos(-5 * HOUR);
            net.node("c").clockOffsetNanos(17_300 * MS);
            net.link("a", "b", LinkSpec.delay(Duration.ofMillis(10)));
            net.link("b", "c", LinkSpec.delay(Duration.ofMillis(15)));
            DelayStatistics truth = new DelayStatistics();
            RealTimeFlowStatistics s = flow(net, "a", "c", truth);
            // Symmetric links: the hellos read each neighbour's clock exactly, so the send time arrives
            // on c's clock and the delay is the 25 ms the packets took.
            assertThat(s.minDelayNanos()).isBetween(25 * MS, 25 * MS + MS / 10);
            assertThat(s.maxDelayNanos()).isLessThan(25 * MS + MS / 10);
            assertThat(s.late()).isZero();
            // The application's own stamps, on virtual time, agree with what the node measured.
            assertThat(truth.count()).isEqualTo(500);
            assertThat(s.meanDelayNanos() / 1e6).isCloseTo(truth.meanMillis(), org.assertj.core.data.Offset.offset(0.1));
            assertThat(net.engine("b").neighbour(net.engine("a").id()).clockOffsetNanos()).isEqualTo(77 * HOUR);
            assertThat(net.engine("b").neighbour(net.engine("c").id()).clockOffsetNanos())
                    .isEqualTo(5 * HOUR + 17_300 * MS);
        }
    }

    @Test
    void nodesSharingAClockReadDelaysExactlyOverAnAsymmetricLink() {
        try (SimNetwork net = new SimNetwork(12)) {
            net.node("a");
            net.node("b");
            net.link("a", "b", LinkSpec.delay(Duration.ofMillis(5)), LinkSpec.delay(Duration.ofMillis(25)));
            RealTimeFlowStatistics s = flow(net, "a", "b", new DelayStatistics());
            assertThat(net.engine("b").neighbour(net.engine("a").id()).clockOffsetNanos()).isZero();
            assertThat(s.minDelayNanos()).isBetween(5 * MS, 5 * MS + MS / 10);
        }
    }

    @Test
    void acrossMachinesAnAsymmetricLinkReadsHalfItsRoundTrip() {
        try (SimNetwork net = new SimNetwork(13)) {
            net.node("a").clockOffsetNanos(-1_000 * HOUR);
            net.node("b").clockOffsetNanos(3 * HOUR);
            net.link("a", "b", LinkSpec.delay(Duration.ofMillis(5)), LinkSpec.delay(Duration.ofMillis(25)));
            RealTimeFlowStatistics s = flow(net, "a", "b", new DelayStatistics());
            // Two clocks cannot tell a link's directions apart: the estimate is off by half the asymmetry,
            // and the delay reads as half the round trip, as NTP's would.
            assertThat(s.minDelayNanos()).isBetween(15 * MS, 15 * MS + MS / 10);
            assertThat(s.late()).isZero();
        }
    }

    @Test
    void aClockCannotBeSetOnceTheNodeRuns() {
        try (SimNetwork net = new SimNetwork(14)) {
            SimNode a = net.node("a");
            net.node("b");
            net.link("a", "b", LinkSpec.delay(Duration.ofMillis(1)));
            net.start();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.clockOffsetNanos(1))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot jump");
            assertThat(a.clock()).isEqualTo(net.now());
        }
    }
}
