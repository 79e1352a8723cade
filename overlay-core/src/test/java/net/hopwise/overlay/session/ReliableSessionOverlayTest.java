package net.hopwise.overlay.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.LeakDetection;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Reliable sessions over virtual chains: the production engine on virtual time. */
class ReliableSessionOverlayTest {
    private static final long MS = 1_000_000L;

    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    private static VirtualOverlay chain(long seed, int nodes, long delay) {
        VirtualOverlay o = new VirtualOverlay(seed, b -> b.defaultMetric(RoutingMetric.HOPS));
        for (int i = 0; i < nodes; i++) {
            o.node("n" + i);
        }
        for (int i = 0; i + 1 < nodes; i++) {
            o.link("n" + i, "n" + (i + 1), delay);
        }
        o.startAll();
        o.runFor(3_000 * MS);
        return o;
    }

    private static int[] lengths(int count, int max, SplittableRandom r) {
        int[] l = new int[count];
        for (int i = 0; i < count; i++) {
            l[i] = 1 + r.nextInt(max);
        }
        return l;
    }

    private static void assertExactlyOnceInOrder(SessionScenario s, int count) {
        assertThat(s.received).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(Arrays.equals(s.received.get(i), s.sent.get(i))).as("message %d", i).isTrue();
        }
    }

    @Test
    void deliversInOrderOverALosslessChain() {
        try (VirtualOverlay o = chain(1, 4, 5 * MS)) {
            SessionScenario s = new SessionScenario(o, "n0", "n3");
            s.open(RoutingMetric.HOPS);
            SplittableRandom r = new SplittableRandom(1);
            s.run(300, lengths(300, 3000, r), MS, 30_000 * MS, r, null);
            assertExactlyOnceInOrder(s, 300);
            assertThat(s.sender.statistics().retransmissions()).isZero();
        }
    }

    @Test
    void recoversLossOnTheMiddleLinkHopByHop() {
        try (VirtualOverlay o = chain(2, 6, 10 * MS)) {
            o.loss("n2", "n3", 0.05);
            o.loss("n3", "n2", 0.05);
            SessionScenario s = new SessionScenario(o, "n0", "n5");
            s.open(RoutingMetric.HOPS);
            SplittableRandom r = new SplittableRandom(2);
            s.run(500, lengths(500, 1000, r), 2 * MS, 60_000 * MS, r, null);
            assertExactlyOnceInOrder(s, 500);
            // Recovered on the lossy link, not end to end.
            assertThat(o.engine("n2").neighbour(net.hopwise.overlay.NodeId.ofName("n3")).reliableStatistics()
                    .retransmissions()).isPositive();
            assertThat(s.sender.statistics().retransmissions()).isZero();
        }
    }

    @Test
    void survivesACrashedRelayByRerouting() {
        VirtualOverlay o = new VirtualOverlay(3, b -> b.defaultMetric(RoutingMetric.HOPS));
        for (String n : new String[] {"a", "b", "c", "d"}) {
            o.node(n);
        }
        o.link("a", "b", 5 * MS);
        o.link("b", "d", 5 * MS);
        o.link("a", "c", 8 * MS);
        o.link("c", "d", 8 * MS);
        o.startAll();
        o.runFor(3_000 * MS);
        try (o) {
            SessionScenario s = new SessionScenario(o, "a", "d");
            s.open(RoutingMetric.LATENCY);
            SplittableRandom r = new SplittableRandom(3);
            s.run(400, lengths(400, 1500, r), 5 * MS, 60_000 * MS, r, () -> o.crash("b"));
            assertExactlyOnceInOrder(s, 400);
            System.out.println(s.sender.statistics() + " " + s.receiver.statistics() + " dupdrops="
                    + o.engine("d").counters().drops(DropReason.DUPLICATE));
            assertThat(s.sender.statistics().retransmissions()).as("resent end to end after the crash").isPositive();
            assertThat(s.receiver.statistics().duplicatesReceived()).isLessThanOrEqualTo(
                    s.sender.statistics().retransmissions());
            assertThat(o.engine("a").counters().drops(DropReason.MALFORMED)).isZero();
        }
    }
}
