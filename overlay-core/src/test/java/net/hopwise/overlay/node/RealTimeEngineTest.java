package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.function.Consumer;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.Test;

/**
 * Real-time flows across a chain a-b-c-d of 10 ms links on virtual time, with 5% loss both ways on
 * the middle link b-c: hop-by-hop recovery, no per-flow state in b and c, and the flow's statistics
 * at d.
 */
class RealTimeEngineTest {
    private static final long MS = 1_000_000L;
    private static final int PACKETS = 2000;
    private static final double LOSS = 0.05;

    private record Run(RealTimeFlowStatistics stats, VirtualOverlay overlay, int delivered) {}

    private Run run(long seed, Consumer<NodeConfig.Builder> customise) {
        VirtualOverlay overlay = new VirtualOverlay(seed, customise);
        for (String n : List.of("a", "b", "c", "d")) {
            overlay.node(n);
        }
        overlay.link("a", "b", 10 * MS);
        overlay.link("b", "c", 10 * MS);
        overlay.link("c", "d", 10 * MS);
        overlay.loss("b", "c", LOSS);
        overlay.loss("c", "b", LOSS);
        overlay.startAll();
        int[] delivered = {0};
        overlay.engine("d").openPort(5004, m -> delivered[0]++);
        overlay.runFor(3_000 * MS);
        NodeId d = NodeId.ofName("d");
        byte[] frame = new byte[160];
        for (int i = 0; i < PACKETS; i++) {
            // G.711: one 160-byte frame every 20 ms.
            SendResult r = overlay.engine("a").sendRealTime(4000, d, 5004, i, Unpooled.wrappedBuffer(frame),
                    RoutingMetric.EXPECTED_LATENCY, overlay.now());
            assertThat(r).isEqualTo(SendResult.ACCEPTED);
            overlay.runFor(20 * MS);
        }
        overlay.runFor(500 * MS);
        List<RealTimeFlowStatistics> flows = overlay.engine("d").realTimeFlows(5004);
        assertThat(flows).hasSize(1);
        return new Run(flows.get(0), overlay, delivered[0]);
    }

    @Test
    void chainRecoversLossesHopByHopAndReportsPerFlowStatistics() {
        Run run = run(7, b -> {});
        try (VirtualOverlay overlay = run.overlay()) {
            RealTimeFlowStatistics s = run.stats();
            assertThat(s.sourceName()).isEqualTo("a");
            assertThat(s.sourcePort()).isEqualTo(4000);
            assertThat(s.received()).isEqualTo(run.delivered());
            assertThat(s.expected()).isBetween((long) PACKETS - 5, (long) PACKETS);
            // 2p^2 - 3p^3 = 0.46% at p = 5%: about 9 of 2000; a third of the link loss is far above it.
            assertThat(s.lossRate()).as("loss after recovery").isLessThan(LOSS / 3);
            assertThat(s.duplicates()).isZero();
            // Three 10 ms hops; a recovered packet waits one 20 ms gap plus a NACK and resend (20 ms).
            assertThat(s.minDelayNanos()).isEqualTo(30 * MS);
            assertThat(s.p50DelayNanos()).isBetween(29 * MS, 31 * MS);
            assertThat(s.maxDelayNanos()).isLessThan(120 * MS);
            assertThat(s.lateRate()).isLessThan(0.005);
            assertThat(s.jitterNanos()).isGreaterThan(0);

            RealTimeChannel bToC = overlay.engine("b").realTimeChannel(NodeId.ofName("c"));
            RealTimeChannel cFromB = overlay.engine("c").realTimeChannel(NodeId.ofName("b"));
            assertThat(bToC.retransmissions()).as("b resends what c asks for").isGreaterThan(50);
            assertThat(cFromB.nacksSent()).isGreaterThan(50);
            assertThat(cFromB.recovered()).isGreaterThan(50);
            assertThat(s.recovered()).as("what b resent arrives marked at d").isEqualTo(cFromB.recovered());
            assertThat(bToC.refusedTokens()).isZero();
            // The lossless links never had to recover anything.
            assertThat(overlay.engine("a").realTimeChannel(NodeId.ofName("b")).retransmissions()).isZero();
            assertThat(overlay.engine("b").realTimeCounters().forwarded()).isEqualTo(PACKETS);
            assertThat(overlay.engine("d").realTimeCounters().delivered()).isEqualTo(s.received());
        }
    }

    @Test
    void withoutRecoveryTheFlowSeesTheLinkLoss() {
        Run run = run(7, b -> b.realTime(RealTimeConfig.builder().recovery(false).build()));
        try (VirtualOverlay overlay = run.overlay()) {
            RealTimeFlowStatistics s = run.stats();
            assertThat(s.lossRate()).as("plain forwarding loses about 5%").isBetween(0.03, 0.07);
            assertThat(s.recovered()).isZero();
            assertThat(s.maxDelayNanos()).isEqualTo(30 * MS);
            assertThat(overlay.engine("b").realTimeChannel(NodeId.ofName("c")).retransmissions()).isZero();
        }
    }

    @Test
    void closedPortsAndUnknownDestinationsAreRefused() {
        VirtualOverlay overlay = new VirtualOverlay(3);
        overlay.node("a");
        overlay.node("b");
        overlay.link("a", "b", 5 * MS);
        overlay.startAll();
        try (overlay) {
            overlay.runFor(2_000 * MS);
            SendResult r = overlay.engine("a").sendRealTime(1, NodeId.ofName("b"), 9, 0,
                    Unpooled.wrappedBuffer(new byte[10]), RoutingMetric.EXPECTED_LATENCY, overlay.now());
            assertThat(r).isEqualTo(SendResult.ACCEPTED);
            overlay.runFor(10 * MS);
            assertThat(overlay.engine("b").counters().drops(DropReason.PORT_CLOSED)).isEqualTo(1);
            assertThat(overlay.engine("a").sendRealTime(1, NodeId.ofName("zz"), 9, 1,
                    Unpooled.wrappedBuffer(new byte[10]), RoutingMetric.EXPECTED_LATENCY, overlay.now()))
                    .isEqualTo(SendResult.NO_ROUTE);
        }
    }
}
