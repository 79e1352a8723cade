package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.ReceivedMessage;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Whole nodes on virtual time: convergence, forwarding, failure and recovery, fragmentation. */
class NodeStackTest {
    private static final long MS = 1_000_000L;
    private static final List<String> NAMES = List.of("a", "b", "c", "d", "e");

    private VirtualOverlay overlay;
    private final List<ReceivedMessage> received = new ArrayList<>();
    private final List<byte[]> payloads = new ArrayList<>();

    /**
     * A ring a-b-c-d-e-a of 5 ms links with an 8 ms chord a-c: a reaches d over e in 10 ms or over the
     * chord in 13 ms, apart by more than the routes' hysteresis margin (2 ms), so a restarted e is
     * taken back.
     */
    @BeforeEach
    void ring() {
        overlay = new VirtualOverlay(42);
        NAMES.forEach(overlay::node);
        overlay.link("a", "b", 5 * MS);
        overlay.link("b", "c", 5 * MS);
        overlay.link("c", "d", 5 * MS);
        overlay.link("d", "e", 5 * MS);
        overlay.link("e", "a", 5 * MS);
        overlay.link("a", "c", 8 * MS);
        overlay.startAll();
        for (String n : NAMES) {
            openSink(n);
        }
    }

    private void openSink(String node) {
        overlay.engine(node).openPort(7, m -> {
            received.add(m);
            payloads.add(m.payloadBytes());
        });
    }

    @AfterEach
    void close() {
        overlay.close();
    }

    private static NodeId id(String name) {
        return NodeId.ofName(name);
    }

    private SendResult send(String from, String to, byte[] payload, RoutingMetric metric) {
        return overlay.engine(from).send(1, id(to), 7, Unpooled.wrappedBuffer(payload), metric, overlay.now());
    }

    @Test
    void everyNodeReachesEveryOtherUnderEveryMetric() {
        overlay.runFor(2_000 * MS);
        for (String from : NAMES) {
            for (String to : NAMES) {
                for (RoutingMetric m : RoutingMetric.values()) {
                    assertThat(send(from, to, (from + to).getBytes(), m)).as(from + "->" + to + " " + m)
                            .isEqualTo(SendResult.ACCEPTED);
                }
            }
        }
        overlay.runFor(100 * MS);
        assertThat(received).hasSize(NAMES.size() * NAMES.size() * RoutingMetric.values().length);
        assertThat(payloads).allSatisfy(p -> assertThat(p).isNotEmpty());
        // Latency routing uses measured RTT: a reaches d over e (10 ms), not over the chord (13 ms).
        assertThat(overlay.engine("a").router().path(id("d"), RoutingMetric.LATENCY))
                .containsExactly(id("a"), id("e"), id("d"));
        assertThat(overlay.engine("b").router().path(id("e"), RoutingMetric.HOPS))
                .containsExactly(id("b"), id("a"), id("e"));
    }

    @Test
    void crashedNodeIsRoutedAroundWithinTheDeadIntervalPlusOneFlood() {
        overlay.runFor(2_000 * MS);
        assertThat(overlay.engine("a").router().nextHop(id("d"), RoutingMetric.LATENCY)).isEqualTo(id("e"));
        overlay.crash("e");
        long crashedAt = overlay.now();
        while (id("e").equals(overlay.engine("a").router().nextHop(id("d"), RoutingMetric.LATENCY))) {
            overlay.runFor(MS);
            assertThat(overlay.now() - crashedAt).as("reroute time").isLessThan(5_000 * MS);
        }
        long reroute = overlay.now() - crashedAt;
        // Dead after 10 missed 100 ms hellos, then one flood of a few 5-8 ms hops and one recomputation.
        long bound = 10 * 100 * MS + 100 * MS + 3 * 8 * MS + 20 * MS;
        assertThat(reroute).as("reroute time %d ms", reroute / MS).isLessThanOrEqualTo(bound);
        assertThat(overlay.engine("a").router().path(id("d"), RoutingMetric.LATENCY))
                .containsExactly(id("a"), id("c"), id("d"));
        assertThat(send("a", "d", "around".getBytes(), RoutingMetric.LATENCY)).isEqualTo(SendResult.ACCEPTED);
        overlay.runFor(50 * MS);
        assertThat(payloads).anySatisfy(p -> assertThat(new String(p)).isEqualTo("around"));

        overlay.start("e");
        openSink("e");
        overlay.runFor(2_000 * MS);
        assertThat(overlay.engine("a").router().path(id("d"), RoutingMetric.LATENCY))
                .containsExactly(id("a"), id("e"), id("d"));
    }

    @Test
    void messagesOf64KibAreFragmentedAcrossHopsAndReassembled() {
        overlay.runFor(2_000 * MS);
        byte[] big = new byte[64 * 1024];
        new Random(7).nextBytes(big);
        assertThat(send("b", "e", big, RoutingMetric.HOPS)).isEqualTo(SendResult.ACCEPTED);
        overlay.runFor(100 * MS);
        assertThat(payloads).hasSize(1);
        assertThat(payloads.get(0)).isEqualTo(big);
        assertThat(overlay.engine("a").counters().packetsForwarded()).isGreaterThanOrEqualTo(58);
        assertThat(overlay.engine("e").reassembler().bufferedBytes()).isZero();
    }

    @Test
    void lostFragmentsTimeOutAndAreCountedWithoutHoldingMemory() {
        overlay.runFor(2_000 * MS);
        overlay.loss("a", "e", 0.5);
        byte[] big = new byte[20_000];
        for (int i = 0; i < 5; i++) {
            send("b", "e", big, RoutingMetric.HOPS);
        }
        overlay.runFor(100 * MS);
        overlay.loss("a", "e", 0);
        assertThat(overlay.engine("e").reassembler().bufferedBytes()).isPositive();
        overlay.runFor(3_000 * MS);
        assertThat(overlay.engine("e").reassembler().bufferedBytes()).isZero();
        assertThat(overlay.engine("e").counters().drops(DropReason.REASSEMBLY)).isPositive();
    }

    @Test
    void unroutableAndMisaddressedTrafficIsCounted() {
        assertThat(send("a", "d", new byte[10], RoutingMetric.HOPS)).isEqualTo(SendResult.NO_ROUTE);
        overlay.runFor(2_000 * MS);
        assertThat(overlay.engine("a").send(1, id("c"), 9, Unpooled.wrappedBuffer(new byte[3]), RoutingMetric.HOPS,
                overlay.now())).isEqualTo(SendResult.ACCEPTED);
        overlay.runFor(50 * MS);
        assertThat(overlay.engine("c").counters().drops(DropReason.PORT_CLOSED)).isEqualTo(1);
        assertThat(send("a", "a", "self".getBytes(), RoutingMetric.HOPS)).isEqualTo(SendResult.ACCEPTED);
        assertThat(new String(payloads.get(payloads.size() - 1))).isEqualTo("self");
    }
}
