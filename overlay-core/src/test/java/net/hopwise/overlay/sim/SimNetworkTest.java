package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;

/** Overlay nodes in the simulator: convergence, failures, and the real-time service end to end. */
class SimNetworkTest {
    private static final long MS = 1_000_000L;

    /** A ring of 12 nodes with chords every third node, 5 ms links. */
    private static SimNetwork ring(long seed) {
        SimNetwork net = new SimNetwork(seed);
        for (int i = 0; i < 12; i++) {
            net.node("n" + i);
        }
        for (int i = 0; i < 12; i++) {
            net.link("n" + i, "n" + ((i + 1) % 12), LinkSpec.delay(Duration.ofMillis(5)));
            if (i % 3 == 0 && i < 6) {
                net.link("n" + i, "n" + ((i + 6) % 12), LinkSpec.delay(Duration.ofMillis(12)));
            }
        }
        net.start();
        return net;
    }

    @Test
    void aFailedLinkIsRoutedAroundWithinTheDeadIntervalAndAFlood() {
        try (SimNetwork net = ring(1)) {
            List<Long> changes = new ArrayList<>();
            net.onNodeEvent((node, e) -> {
                if (e.kind() == NodeEvent.Kind.ROUTES_CHANGED) {
                    changes.add(net.now());
                }
            });
            net.runFor(Duration.ofSeconds(3));
            NodeId n1 = NodeId.ofName("n1");
            assertThat(net.engine("n0").router().nextHop(n1, RoutingMetric.LATENCY)).isEqualTo(n1);
            long failedAt = net.now();
            changes.clear();
            net.failLink("n0", "n1");
            net.runFor(Duration.ofSeconds(3));
            assertThat(changes).isNotEmpty();
            long converged = changes.get(changes.size() - 1) - failedAt;
            // Dead after 10 missed 100 ms hellos, then one flood of a few 5-12 ms hops and a recomputation.
            assertThat(converged).isBetween(900 * MS, 1_200 * MS);
            assertThat(net.engine("n0").router().path(n1, RoutingMetric.LATENCY))
                    .doesNotContainSequence(NodeId.ofName("n0"), n1).endsWith(n1);
            assertThat(net.engine("n1").router().path(NodeId.ofName("n0"), RoutingMetric.LATENCY))
                    .doesNotContainSequence(n1, NodeId.ofName("n0"));
        }
    }

    @Test
    void aCrashedNodeDisappearsFromRoutesAndComesBackAfterARestart() {
        try (SimNetwork net = ring(2)) {
            net.runFor(Duration.ofSeconds(3));
            NodeId n6 = NodeId.ofName("n6");
            net.crash("n6");
            net.runFor(Duration.ofSeconds(3));
            assertThat(net.engine("n0").hasRoute(n6, RoutingMetric.HOPS)).isFalse();
            assertThat(net.engine("n0").hasRoute(NodeId.ofName("n7"), RoutingMetric.HOPS)).isTrue();
            net.restart("n6");
            net.runFor(Duration.ofSeconds(3));
            assertThat(net.engine("n0").router().path(n6, RoutingMetric.HOPS)).hasSize(2);
            assertThat(net.nodeNamed("n6").restarts()).isEqualTo(1);
        }
    }

    @Test
    void theRealTimeServiceRecoversLossesOnALinkAsTheThesisPredicts() {
        double p = 0.05;
        try (SimNetwork net = new SimNetwork(7)) {
            net.node("a");
            net.node("b");
            net.link("a", "b", LinkSpec.builder().delayMillis(10).bandwidthBitsPerSecond(10_000_000)
                    .loss(new LossModel.Bernoulli(p)).build());
            net.start();
            net.runFor(Duration.ofSeconds(3));
            DelayStatistics delays = new DelayStatistics(15 * MS, 40 * MS);
            OverlayCbrFlow flow = new OverlayCbrFlow(net, 1, "a", "b", 9, 160, RoutingMetric.EXPECTED_LATENCY,
                    delays, OverlayCbrFlow.Service.REAL_TIME);
            flow.start(net.now(), 2 * MS, net.now() + 20_000 * MS);
            net.runFor(Duration.ofSeconds(22));
            double residual = 1 - (double) flow.delivered() / flow.generated();
            // 10,000 packets: the whole model 2p^2 - p^3 = 0.4875%, sampling sd about 0.07%.
            assertThat(residual).isBetween(0.0028, 0.0070);
            // Recovered packets arrive after 3T + delta = 32 ms: about p of them are above 15 ms, none above 40.
            assertThat(delays.fractionAbove(0)).isBetween(0.035, 0.06);
            assertThat(delays.fractionAbove(1)).isZero();
        }
    }

    @Test
    void withoutRecoveryTheRealTimeServiceLosesWhatTheLinkLoses() {
        try (SimNetwork net = new SimNetwork(8, b -> b.realTime(RealTimeConfig.builder().recovery(false).build()))) {
            net.node("a");
            net.node("b");
            net.link("a", "b", LinkSpec.builder().delayMillis(10).loss(new LossModel.Bernoulli(0.05)).build());
            net.start();
            net.runFor(Duration.ofSeconds(3));
            OverlayCbrFlow flow = new OverlayCbrFlow(net, 1, "a", "b", 9, 160, RoutingMetric.EXPECTED_LATENCY,
                    new DelayStatistics(), OverlayCbrFlow.Service.REAL_TIME);
            flow.start(net.now(), 2 * MS, net.now() + 8_000 * MS);
            net.runFor(Duration.ofSeconds(9));
            assertThat(1 - (double) flow.delivered() / flow.generated()).isBetween(0.04, 0.06);
        }
    }
}
