package net.hopwise.overlay.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.LeakDetection;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Whatever the loss, duplication and reordering on every link of a random topology, and even when
 * a relay fails mid-stream and traffic is rerouted, a reliable session delivers every message
 * exactly once and in order, and the receiving edge's memory stays within its window.
 *
 * <p>Topologies are rings (so that losing any one relay leaves a path) with random chords and
 * random link delays; the two edges sit on opposite sides of the ring.
 */
class ReliableSessionProperties {
    private static final long MS = 1_000_000L;

    @AfterContainer
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    @Property(tries = 30)
    void everyMessageArrivesOnceInOrder(@ForAll long seed, @ForAll @IntRange(min = 4, max = 8) int nodes,
            @ForAll @DoubleRange(min = 0, max = 0.15) double loss,
            @ForAll @DoubleRange(min = 0, max = 0.1) double duplication,
            @ForAll @DoubleRange(min = 0, max = 0.2) double reordering, @ForAll boolean crashARelay) {
        SplittableRandom random = new SplittableRandom(seed);
        SessionConfig small = SessionConfig.builder().sendBuffer(128).receiveWindow(64).build();
        try (VirtualOverlay o = new VirtualOverlay(seed, b -> b.session(small))) {
            for (int i = 0; i < nodes; i++) {
                o.node("n" + i);
            }
            for (int i = 0; i < nodes; i++) {
                o.link("n" + i, "n" + ((i + 1) % nodes), (1 + random.nextInt(20)) * MS);
            }
            int chords = random.nextInt(nodes / 2 + 1);
            for (int c = 0; c < chords; c++) {
                int a = random.nextInt(nodes);
                int b = random.nextInt(nodes);
                if (a != b && Math.abs(a - b) != 1 && Math.abs(a - b) != nodes - 1) {
                    o.link("n" + a, "n" + b, (1 + random.nextInt(20)) * MS);
                }
            }
            o.startAll();
            o.runFor(3_000 * MS);
            // Impair every link, both directions (links were declared in both directions by link()).
            for (int i = 0; i < nodes; i++) {
                for (int j = 0; j < nodes; j++) {
                    if (i != j && o.engine("n" + i).neighbour(NodeId.ofName("n" + j)) != null) {
                        o.loss("n" + i, "n" + j, random.nextDouble() * loss);
                        o.duplicate("n" + i, "n" + j, random.nextDouble() * duplication);
                        o.reorder("n" + i, "n" + j, random.nextDouble() * reordering, 30 * MS);
                    }
                }
            }
            String from = "n0";
            String to = "n" + nodes / 2;
            SessionScenario s = new SessionScenario(o, from, to);
            s.open(RoutingMetric.LATENCY);
            int count = 200;
            int[] lengths = new int[count];
            for (int i = 0; i < count; i++) {
                // Mostly one packet, some up to three.
                lengths[i] = 1 + (random.nextInt(8) == 0 ? random.nextInt(3000) : random.nextInt(1000));
            }
            Runnable crash = null;
            if (crashARelay) {
                crash = () -> {
                    List<NodeId> path = o.engine(from).router().path(NodeId.ofName(to), RoutingMetric.LATENCY);
                    if (path.size() > 2) {
                        String relay = o.engine(from).router().database().nameOf(path.get(1)).orElseThrow();
                        o.crash(relay);
                    }
                };
            }
            s.run(count, lengths, 2 * MS, 120_000 * MS, random, crash);

            assertThat(s.received).as("messages delivered").hasSize(count);
            for (int i = 0; i < count; i++) {
                assertThat(Arrays.equals(s.received.get(i), s.sent.get(i))).as("message %d", i).isTrue();
            }
            SessionStatistics rx = s.receiver.statistics();
            assertThat(rx.messagesDelivered()).isEqualTo(count);
            assertThat(rx.receiveHeldMax()).as("receiver memory").isLessThanOrEqualTo(small.receiveWindow());
            assertThat(s.sender.statistics().sendBuffered()).isLessThanOrEqualTo(small.sendBuffer());
        }
    }
}
