package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.realtime.RealTimeCodec;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The recovered mark end to end, on virtual time over a chain a-b-c-d of 10 ms links with one lossy
 * link (5% both ways): a packet that link resent arrives marked at d however many hops follow the
 * resend, every other packet arrives unmarked, and d's count of marked packets is what the lossy
 * link's receiving end recovered. The links keep order, so every packet that filled a gap there was
 * a retransmission. On the wire, only the lossy link carries retransmitted copies, and only the
 * links after it carry the mark.
 */
class RealTimeRecoveredMarkTest {
    private static final long MS = 1_000_000L;
    private static final int PACKETS = 1500;
    private static final double LOSS = 0.05;
    /** Three 10 ms hops. */
    private static final long PATH_DELAY = 30 * MS;
    /** The next packet 20 ms later reveals the gap, then a NACK and the resend cross the link. */
    private static final long LEAST_RECOVERY_DELAY = PATH_DELAY + 20 * MS + 2 * 10 * MS;

    private record Arrival(long flowSequence, long delayNanos, boolean recovered) {}

    /** Real-time data datagrams put on one direction of a link with each flag. */
    private static final class Flags {
        long retransmitted;
        long recovered;
    }

    private record Run(VirtualOverlay overlay, RealTimeFlowStatistics stats, List<Arrival> arrivals,
            Map<String, Flags> flags) {}

    private static final String[][] DIRECTIONS = {{"a", "b"}, {"b", "c"}, {"c", "d"}};

    /** A G.711-like flow from a to d: one 160-byte frame every 20 ms; {@code lossy} names a link, or null. */
    private static Run run(long seed, String[] lossy) {
        VirtualOverlay overlay = new VirtualOverlay(seed);
        for (String n : List.of("a", "b", "c", "d")) {
            overlay.node(n);
        }
        overlay.link("a", "b", 10 * MS);
        overlay.link("b", "c", 10 * MS);
        overlay.link("c", "d", 10 * MS);
        if (lossy != null) {
            overlay.loss(lossy[0], lossy[1], LOSS);
            overlay.loss(lossy[1], lossy[0], LOSS);
        }
        Map<String, Flags> flags = new HashMap<>();
        for (String[] link : DIRECTIONS) {
            Flags f = new Flags();
            flags.put(link[0] + link[1], f);
            overlay.watch(link[0], link[1], datagram -> {
                if (WireHeader.type(datagram) == PacketType.REALTIME_DATA) {
                    int bits = WireHeader.flags(datagram);
                    f.retransmitted += bits & RealTimeCodec.FLAG_RETRANSMITTED;
                    f.recovered += (bits & RealTimeCodec.FLAG_RECOVERED) != 0 ? 1 : 0;
                }
            });
        }
        overlay.startAll();
        List<Arrival> arrivals = new ArrayList<>();
        overlay.engine("d").openPort(5004, m -> arrivals.add(
                new Arrival(m.flowSequence(), overlay.now() - m.sendTimeNanos(), m.recovered())));
        overlay.runFor(3_000 * MS);
        NodeId d = NodeId.ofName("d");
        byte[] frame = new byte[160];
        for (int i = 0; i < PACKETS; i++) {
            SendResult r = overlay.engine("a").sendRealTime(4000, d, 5004, i, Unpooled.wrappedBuffer(frame),
                    RoutingMetric.EXPECTED_LATENCY, overlay.now());
            assertThat(r).as("seed %d", seed).isEqualTo(SendResult.ACCEPTED);
            overlay.runFor(20 * MS);
        }
        overlay.runFor(500 * MS);
        List<RealTimeFlowStatistics> flows = overlay.engine("d").realTimeFlows(5004);
        assertThat(flows).as("seed %d", seed).hasSize(1);
        return new Run(overlay, flows.get(0), arrivals, flags);
    }

    private static RealTimeChannel channel(VirtualOverlay overlay, String node, String neighbour) {
        return overlay.engine(node).realTimeChannel(NodeId.ofName(neighbour));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 1_234, 0x5EED})
    void packetsTheMiddleLinkResentArriveMarked(long seed) {
        Run run = run(seed, new String[] {"b", "c"});
        try (VirtualOverlay overlay = run.overlay()) {
            String why = "seed " + seed + ", " + run.stats();
            long recovered = channel(overlay, "c", "b").recovered();
            assertMarksAreTheRecoveries(run, recovered, why);
            assertThat(channel(overlay, "b", "a").recovered()).as(why).isZero();
            assertThat(channel(overlay, "d", "c").recovered()).as("c-d loses nothing; %s", why).isZero();
            assertWire(run, "ab", 0, 0, why);
            assertWire(run, "bc", channel(overlay, "b", "c").retransmissions(), 0, why);
            assertWire(run, "cd", 0, recovered, why);
        }
    }

    @Test
    void theMarkOutlivesEveryHopAfterTheResend() {
        long seed = 11;
        Run run = run(seed, new String[] {"a", "b"});
        try (VirtualOverlay overlay = run.overlay()) {
            String why = "seed " + seed + ", " + run.stats();
            // b forwards what a resent to c, and c, which saw no resend, forwards the mark to d.
            long recovered = channel(overlay, "b", "a").recovered();
            assertMarksAreTheRecoveries(run, recovered, why);
            assertThat(channel(overlay, "c", "b").recovered()).as(why).isZero();
            assertThat(channel(overlay, "d", "c").recovered()).as(why).isZero();
            assertWire(run, "ab", channel(overlay, "a", "b").retransmissions(), 0, why);
            assertWire(run, "bc", 0, recovered, why);
            assertWire(run, "cd", 0, recovered, why);
        }
    }

    @Test
    void withoutLossNothingIsMarked() {
        Run run = run(3, null);
        try (VirtualOverlay overlay = run.overlay()) {
            RealTimeFlowStatistics s = run.stats();
            assertThat(s.received()).isEqualTo(PACKETS);
            assertThat(s.recovered()).isZero();
            assertThat(run.arrivals()).hasSize(PACKETS).noneMatch(Arrival::recovered);
            assertThat(overlay.engine("d").realTimeCounters().recovered()).isZero();
            for (String[] link : DIRECTIONS) {
                assertThat(channel(overlay, link[0], link[1]).retransmissions()).isZero();
                assertWire(run, link[0] + link[1], 0, 0, "no loss");
            }
        }
    }

    /**
     * What one direction carried: {@code retransmitted} copies flagged as resent (every resend of its
     * sending end, none forwarded) and {@code recovered} packets marked by a node before it.
     */
    private static void assertWire(Run run, String direction, long retransmitted, long recovered, String why) {
        Flags f = run.flags().get(direction);
        assertThat(f.retransmitted).as("retransmitted copies on %s; %s", direction, why).isEqualTo(retransmitted);
        assertThat(f.recovered).as("marked packets on %s; %s", direction, why).isEqualTo(recovered);
    }

    private static void assertMarksAreTheRecoveries(Run run, long linkRecovered, String why) {
        RealTimeFlowStatistics s = run.stats();
        List<Arrival> marked = run.arrivals().stream().filter(Arrival::recovered).toList();
        assertThat(run.arrivals()).as(why).hasSize((int) s.received());
        assertThat(linkRecovered).as("the lossy link recovered something; %s", why).isGreaterThan(20);
        assertThat(s.recovered()).as("marked at d = recovered by the lossy link; %s", why).isEqualTo(linkRecovered);
        assertThat(marked).as(why).hasSize((int) linkRecovered);
        assertThat(run.overlay().engine("d").realTimeCounters().recovered()).as(why).isEqualTo(linkRecovered);
        assertThat(marked).as("a marked packet waited for its resend; %s", why)
                .allMatch(a -> a.delayNanos() >= LEAST_RECOVERY_DELAY);
        assertThat(run.arrivals()).as("an unmarked packet crossed each link once; %s", why)
                .filteredOn(a -> !a.recovered()).allMatch(a -> a.delayNanos() == PATH_DELAY);
        assertThat(run.arrivals().stream().map(Arrival::flowSequence).distinct().count()).as(why)
                .isEqualTo(s.received());
        assertThat(run.overlay().engine("d").counters().drops(DropReason.MALFORMED)).as(why).isZero();
    }
}
