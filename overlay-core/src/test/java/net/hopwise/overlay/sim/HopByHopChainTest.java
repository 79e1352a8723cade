package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;
import net.hopwise.overlay.sim.tcp.TcpVariant;
import org.junit.jupiter.api.Test;

/**
 * The paper's claim on Chain-5 in miniature: with loss on the middle link, recovering on the hop
 * (production reliable links and a session) delays far fewer messages than end-to-end TCP, and
 * still delivers every message exactly once and in order.
 */
class HopByHopChainTest {
    private static final long MS = 1_000_000L;
    private static final String[] CHAIN = {"A", "B", "C", "D", "E", "F"};

    private static SimNetwork chain(long seed, boolean overlay) {
        SimNetwork net = new SimNetwork(seed);
        for (String n : CHAIN) {
            if (overlay) {
                net.node(n);
            } else {
                net.plainNode(n);
            }
        }
        LinkSpec plain = LinkSpec.builder().delayMillis(10).bandwidthBitsPerSecond(10_000_000).build();
        for (int i = 0; i < 5; i++) {
            LinkSpec spec = i == 2 ? plain.withLoss(new LossModel.Bernoulli(0.02)) : plain;
            net.link(CHAIN[i], CHAIN[i + 1], spec, plain);
        }
        net.start();
        return net;
    }

    @Test
    void hopByHopRecoveryDelaysFarFewerMessagesThanEndToEndTcp() {
        DelayStatistics hop = new DelayStatistics(60 * MS, 100 * MS);
        try (SimNetwork net = chain(11, true)) {
            net.runFor(Duration.ofSeconds(3));
            OverlaySessionFlow flow = new OverlaySessionFlow(net, 1, "A", "F", 7, 1000, RoutingMetric.HOPS, hop);
            flow.start(net.now(), 16 * MS, net.now() + 40_000 * MS);
            net.runFor(Duration.ofSeconds(50));
            assertThat(flow.generated()).isEqualTo(2500);
            assertThat(flow.delivered()).isEqualTo(2500);
            assertThat(net.trace().count(TraceKind.WIRE_LOSS)).isGreaterThan(25);
        }
        DelayStatistics e2e = new DelayStatistics(60 * MS, 100 * MS);
        try (SimNetwork net = chain(11, false)) {
            TcpFlow flow = new TcpFlow(net, 1, TcpVariant.SACK, TcpConfig.defaults(),
                    net.path(CHAIN), net.path("F", "E", "D", "C", "B", "A"), e2e);
            flow.constantRate(net.now(), 16 * MS, net.now() + 40_000 * MS);
            net.runFor(Duration.ofSeconds(50));
            assertThat(flow.receiver().delivered()).isEqualTo(2500);
        }
        assertThat(hop.fractionAbove(0)).isLessThan(e2e.fractionAbove(0) / 3);
        assertThat(hop.fractionAbove(1)).isLessThan(e2e.fractionAbove(1) / 10);
        assertThat(hop.meanMillis()).isLessThan(70);
        assertThat(e2e.meanMillis()).isGreaterThan(hop.meanMillis() * 2);
    }
}
