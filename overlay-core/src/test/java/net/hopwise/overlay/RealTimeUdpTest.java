package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * A real-time flow over real UDP sockets on loopback, a-b-c, with 10% loss impaired on a to b: the
 * real-time link a-b recovers, so the flow at c loses far less than the link, and the packets a
 * resent reach c marked recovered across b.
 */
class RealTimeUdpTest {
    private static final int PACKETS = 2000;
    private static final double LINK_LOSS = 0.10;

    @Test
    void flowLosesLessThanTheImpairedLink() {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (NodeRuntime runtime = NodeRuntime.create(2)) {
            OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).meterRegistry(registry)
                    .impairmentSeed(11).build(), runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).meterRegistry(registry).build(),
                    runtime);
            OverlayNode c = OverlayNode.start(NodeConfig.builder("c").loopback(0).meterRegistry(registry).build(),
                    runtime);
            try {
                link(a, b);
                link(b, c);
                Eventually.await("a and b route to c by expected latency",
                        () -> a.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("c")
                                && b.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("c"));
                a.impair("b", Direction.OUTBOUND, ImpairmentConfig.builder().bernoulliLoss(LINK_LOSS).build());

                AtomicLong delivered = new AtomicLong();
                AtomicLong deliveredRecovered = new AtomicLong();
                OverlayPort sink = c.openPort(5004, m -> {
                    delivered.incrementAndGet();
                    if (m.recovered()) {
                        deliveredRecovered.incrementAndGet();
                    }
                });
                OverlayPort source = a.openPort(4000, m -> {});
                RealTimeFlow flow = source.openRealTime("c", 5004);
                assertThat(flow.metric()).isEqualTo(RoutingMetric.EXPECTED_LATENCY);
                byte[] frame = new byte[160];
                // Batches of 10 with a wait for the previous batches to be accounted for at c: a
                // stream, not a burst of thousands that would queue longer than the 100 ms history.
                for (int sent = 0; sent < PACKETS; sent += 10) {
                    for (int i = 0; i < 10; i++) {
                        assertThat(flow.send(frame)).isEqualTo(SendResult.ACCEPTED);
                    }
                    int before = sent;
                    Eventually.await("packets before " + before + " accounted for at c", () -> {
                        if (expected(sink) >= before) {
                            return true;
                        }
                        // A loss at the end of what was sent shows only when a later packet arrives.
                        assertThat(flow.send(frame)).isEqualTo(SendResult.ACCEPTED);
                        return false;
                    });
                }
                // A loss among the last packets shows only when a later one arrives: keep sending.
                Eventually.await("all " + PACKETS + " packets accounted for at c", () -> {
                    flow.send(frame);
                    return expected(sink) >= PACKETS;
                });
                RealTimeFlowStatistics s = sink.realTimeFlows().get(0);
                assertThat(s.sourceName()).isEqualTo("a");
                assertThat(s.duplicates()).isZero();
                assertThat(s.lossRate()).as("loss seen by the application, link loss %s: %s", LINK_LOSS, s)
                        .isLessThan(LINK_LOSS / 2);
                double retransmissions = registry.get("hopwise.link.retransmissions").tag("node", "a")
                        .tag("peer", "b").tag("channel", "realtime").functionCounter().count();
                assertThat(retransmissions).as("a resent lost packets").isGreaterThan(PACKETS * LINK_LOSS / 4);
                assertThat(registry.get("hopwise.link.nacks").tag("node", "b").tag("peer", "a")
                        .tag("direction", "out").functionCounter().count()).isGreaterThan(0);
                assertThat(registry.get("hopwise.realtime.packets").tag("node", "c").tag("direction", "delivered")
                        .functionCounter().count()).as("tail packets may still arrive")
                        .isGreaterThanOrEqualTo((double) s.received());
                assertThat(delivered.get()).as("the handler saw every packet counted").isGreaterThanOrEqualTo(s.received());
                // Read after the flow's statistics, so that packets still arriving only raise what follows.
                assertThat(s.recovered()).as("packets a resent, marked at c: %s", s).isGreaterThan(0);
                assertThat(deliveredRecovered.get()).as("the handler saw every recovered packet counted")
                        .isGreaterThanOrEqualTo(s.recovered());
                long recoveredAtB = b.inspect(e -> e.realTimeChannel(a.id()).recovered());
                assertThat(recoveredAtB).as("each marked packet filled a gap on a-b")
                        .isGreaterThanOrEqualTo(s.recovered());
                assertThat(registry.get("hopwise.realtime.recovered").tag("node", "c").functionCounter().count())
                        .isGreaterThanOrEqualTo((double) s.recovered());
                assertThat(registry.get("hopwise.realtime.recovered").tag("node", "b").functionCounter().count())
                        .as("b delivers nothing").isZero();
            } finally {
                a.stop();
                b.stop();
                c.stop();
            }
        }
    }

    private static long expected(OverlayPort sink) {
        List<RealTimeFlowStatistics> flows = sink.realTimeFlows();
        return flows.isEmpty() ? 0 : flows.get(0).expected();
    }

    private static void link(OverlayNode x, OverlayNode y) {
        x.addNeighbour(new NeighbourConfig(y.name(), new InetSocketAddress("127.0.0.1", y.localAddress().getPort())));
        y.addNeighbour(new NeighbourConfig(x.name(), new InetSocketAddress("127.0.0.1", x.localAddress().getPort())));
    }
}
