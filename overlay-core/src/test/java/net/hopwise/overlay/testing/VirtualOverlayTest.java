package net.hopwise.overlay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.TraceKind;
import net.hopwise.overlay.wire.PacketType;
import org.junit.jupiter.api.Test;

/** The test face of the simulator: it runs on the simulator's clock and keeps its own impairments seeded. */
class VirtualOverlayTest {
    private static final long MS = 1_000_000L;

    @Test
    void runsOnTheSimulatorsClockAndLinks() {
        try (VirtualOverlay o = chain(5)) {
            o.runFor(2_000 * MS);

            assertThat(o.now()).isEqualTo(o.network().now());
            assertThat(o.engine("a").router().path(NodeId.ofName("c"), RoutingMetric.LATENCY)).isNotNull();
            // Every datagram the engines sent went over the network's links, in its trace.
            long sent = 0;
            for (PacketType type : PacketType.values()) {
                sent += o.datagrams("a", "b", type) + o.datagrams("b", "a", type) + o.datagrams("b", "c", type)
                        + o.datagrams("c", "b", type);
            }
            assertThat(o.network().trace().count(TraceKind.SENT)).isEqualTo(sent).isPositive();
            assertThat(o.network().simulator().eventsExecuted()).isPositive();
        }
    }

    @Test
    void theSameSeedGivesTheSameRunWithEveryImpairment() {
        assertThat(impairedDigest(5)).isEqualTo(impairedDigest(5)).isNotEqualTo(impairedDigest(6));
    }

    @Test
    void aDuplicatedDirectionDeliversEveryDatagramTwice() {
        List<Long> arrivals = new ArrayList<>();
        try (VirtualOverlay o = new VirtualOverlay(3)) {
            o.node("a");
            o.external("x", (from, datagram, now) -> arrivals.add(now));
            o.link("a", "x", 4 * MS);
            o.duplicate("a", "x", 1.0);
            o.startAll();
            o.runFor(1_000 * MS);
            o.crash("a");
            o.runFor(10 * MS);

            assertThat(o.datagrams("a", "x", PacketType.HELLO)).isPositive();
            assertThat(arrivals).hasSize(2 * (int) o.datagrams("a", "x", PacketType.HELLO));
        }
    }

    @Test
    void aReorderedDirectionHoldsEveryDatagramBackByUpToTheExtraDelay() {
        List<Long> arrivals = new ArrayList<>();
        List<Long> sends = new ArrayList<>();
        try (VirtualOverlay o = new VirtualOverlay(4)) {
            o.node("a");
            o.external("x", (from, datagram, now) -> arrivals.add(now));
            o.link("a", "x", 4 * MS);
            o.reorder("a", "x", 1.0, 30 * MS);
            o.startAll();
            long counted = 0;
            while (o.now() < Simulator.START_NANOS + 2_000 * MS) {
                o.runFor(MS);
                for (long n = o.datagrams("a", "x", PacketType.HELLO); counted < n; counted++) {
                    sends.add(o.now()); // sent within the last millisecond
                }
            }
            o.crash("a");
            o.runFor(40 * MS);

            assertThat(sends).hasSizeGreaterThan(2);
            assertThat(arrivals).hasSameSizeAs(sends);
            long held = arrivals.stream().mapToLong(Long::longValue).sum()
                    - sends.stream().mapToLong(Long::longValue).sum() - sends.size() * 4 * MS;
            assertThat(held).isPositive().isLessThanOrEqualTo(sends.size() * 30 * MS);
        }
    }

    @Test
    void closingReleasesWhatIsStillOnItsWay() {
        runAndCloseWithDatagramsHeld();
        LeakDetection.assertNoLeaks();
    }

    private static void runAndCloseWithDatagramsHeld() {
        int[] arrived = new int[1];
        try (VirtualOverlay o = new VirtualOverlay(5)) {
            o.node("a");
            o.external("x", (from, datagram, now) -> arrived[0]++);
            o.link("a", "x", 50 * MS);
            o.reorder("a", "x", 1.0, 10_000 * MS);
            o.startAll();
            o.runFor(3_000 * MS);
            assertThat(o.datagrams("a", "x", PacketType.HELLO)).isGreaterThan(arrived[0]);
        }
    }

    private static String impairedDigest(long seed) {
        try (VirtualOverlay o = chain(seed)) {
            for (String[] d : new String[][] {{"a", "b"}, {"b", "a"}, {"b", "c"}, {"c", "b"}}) {
                o.loss(d[0], d[1], 0.1);
                o.duplicate(d[0], d[1], 0.1);
                o.reorder(d[0], d[1], 0.2, 20 * MS);
            }
            o.runFor(3_000 * MS);
            return o.network().trace().digest() + " " + o.datagrams("a", "b", PacketType.HELLO);
        }
    }

    private static VirtualOverlay chain(long seed) {
        VirtualOverlay o = new VirtualOverlay(seed);
        o.node("a");
        o.node("b");
        o.node("c");
        o.link("a", "b", 5 * MS);
        o.link("b", "c", 7 * MS);
        o.startAll();
        return o;
    }
}
