package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.impair.LossModel;
import org.junit.jupiter.api.Test;

/** One link direction: serialisation, propagation, queue disciplines, loss models, failures. */
class SimLinkTest {
    private static final long MS = 1_000_000L;

    private final List<TestPacket> arrivals = new ArrayList<>();

    private static SimNetwork pair(LinkSpec spec, long seed) {
        SimNetwork net = new SimNetwork(seed);
        net.plainNode("a");
        net.plainNode("b");
        net.link("a", "b", spec);
        net.start();
        return net;
    }

    private TestPacket send(SimNetwork net, int id, int size, long flow) {
        TestPacket p = new TestPacket(id, size, flow, arrivals);
        net.direction("a", "b").send(p, net.now());
        return p;
    }

    @Test
    void packetsAreSerialisedBackToBackThenPropagated() {
        // 1000 bytes at 1 Mbit/s take 8 ms; 10 ms of propagation follow.
        try (SimNetwork net = pair(LinkSpec.builder().delay(Duration.ofMillis(10)).bandwidthBitsPerSecond(1_000_000)
                .build(), 1)) {
            long t0 = net.now();
            for (int i = 0; i < 3; i++) {
                send(net, i, 1000, 0);
            }
            net.runFor(Duration.ofSeconds(1));
            assertThat(arrivals).extracting(p -> p.arrivedAt - t0).containsExactly(18 * MS, 26 * MS, 34 * MS);
        }
    }

    @Test
    void aLinkMadeUnlimitedWhileAPacketIsOnItSendsWhatWaitedAtOnce() {
        // 1000 bytes at 1 Mbit/s take 8 ms: at 4 ms the first is on the link and two wait when the cap goes.
        try (SimNetwork net = pair(LinkSpec.builder().delay(Duration.ofMillis(10)).bandwidthBitsPerSecond(1_000_000)
                .build(), 1)) {
            long t0 = net.now();
            for (int i = 0; i < 3; i++) {
                send(net, i, 1000, 0);
            }
            net.runFor(Duration.ofMillis(4));
            net.changeLink("a", "b", LinkSpec.builder().delay(Duration.ofMillis(10)).build());
            net.runFor(Duration.ofSeconds(1));
            // The first finishes its 8 ms; the two behind it go to the wire when it does, in order.
            assertThat(arrivals).extracting(p -> p.id).containsExactly(0, 1, 2);
            assertThat(arrivals).extracting(p -> p.arrivedAt - t0).containsExactly(18 * MS, 18 * MS, 18 * MS);
        }
    }

    @Test
    void dropTailDropsArrivalsBeyondItsLimit() {
        try (SimNetwork net = pair(LinkSpec.builder().bandwidthBitsPerSecond(1_000_000)
                .queue(new QueueDiscipline.DropTail(5)).build(), 1)) {
            List<TestPacket> sent = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                sent.add(send(net, i, 1000, 0));
            }
            net.runFor(Duration.ofSeconds(1));
            // One in service and five waiting; the last four find the queue full.
            assertThat(arrivals).extracting(p -> p.id).containsExactly(0, 1, 2, 3, 4, 5);
            assertThat(sent.subList(6, 10)).allMatch(p -> p.discarded);
            assertThat(net.direction("a", "b").queueDrops()).isEqualTo(4);
            assertThat(net.trace().count(TraceKind.QUEUE_DROP)).isEqualTo(4);
        }
    }

    @Test
    void redDropsEarlyBeforeTheQueueIsFullAndKeepsTheAverageBelowTheMaximum() {
        QueueDiscipline.Red red = new QueueDiscipline.Red(100, 5, 15, 0.1, 0.02);
        try (SimNetwork net = pair(LinkSpec.builder().bandwidthBitsPerSecond(1_000_000).queue(red).build(), 3)) {
            // Twice the link rate for 10 s: DropTail would sit at 100 packets; RED keeps it short.
            for (int i = 0; i < 2500; i++) {
                int id = i;
                net.at(net.now() + i * 4 * MS, now -> send(net, id, 1000, 0));
            }
            int maxSeen = 0;
            for (int step = 0; step < 1000; step++) {
                net.runFor(Duration.ofMillis(10));
                maxSeen = Math.max(maxSeen, net.direction("a", "b").queueLength());
            }
            net.runFor(Duration.ofSeconds(1));
            SimLink link = net.direction("a", "b");
            assertThat(link.queueDrops()).isGreaterThan(1000);
            assertThat(maxSeen).isLessThan(40);
            assertThat(arrivals.size() + link.queueDrops()).isEqualTo(2500);
        }
    }

    @Test
    void fairQueuingSharesTheLinkByBytesBetweenFlows() {
        try (SimNetwork net = pair(LinkSpec.builder().bandwidthBitsPerSecond(1_000_000)
                .queue(new QueueDiscipline.FairQueue(60, 1500)).build(), 1)) {
            // Both flows offer far more than the link carries: flow 1 in 1000-byte packets, flow 2 in 500-byte ones.
            for (int i = 0; i < 1000; i++) {
                int id = i;
                net.at(net.now() + i * MS, now -> {
                    send(net, id, 1000, 1);
                    send(net, 10_000 + id, 500, 2);
                });
            }
            net.runFor(Duration.ofMillis(1000));
            long bytes1 = arrivals.stream().filter(p -> p.flow() == 1).mapToLong(Packet::sizeBytes).sum();
            long bytes2 = arrivals.stream().filter(p -> p.flow() == 2).mapToLong(Packet::sizeBytes).sum();
            assertThat(bytes1 + bytes2).isGreaterThan(120_000);
            assertThat((double) bytes1 / bytes2).isCloseTo(1.0, within(0.05));
        }
    }

    @Test
    void bernoulliAndGilbertElliottLoseTheirStationaryShare() {
        for (LossModel model : List.of(new LossModel.Bernoulli(0.05),
                new LossModel.GilbertElliott(0.01, 0.2, 0.0, 1.0))) {
            arrivals.clear();
            try (SimNetwork net = pair(LinkSpec.builder().loss(model).build(), 11)) {
                int n = 100_000;
                for (int i = 0; i < n; i++) {
                    send(net, i, 100, 0);
                }
                net.runFor(Duration.ofMillis(1));
                double lost = 1 - arrivals.size() / (double) n;
                assertThat(lost).as(model.toString()).isCloseTo(model.stationaryLossRate(), within(0.006));
                assertThat(net.direction("a", "b").wireLosses()).isEqualTo(n - arrivals.size());
            }
        }
    }

    @Test
    void aFailedLinkLosesWhatIsQueuedAndInFlightAndRecovers() {
        try (SimNetwork net = pair(LinkSpec.builder().delay(Duration.ofMillis(10)).bandwidthBitsPerSecond(1_000_000)
                .build(), 1)) {
            for (int i = 0; i < 5; i++) {
                send(net, i, 1000, 0);
            }
            net.runFor(Duration.ofMillis(12));
            net.failLink("a", "b");
            TestPacket whileDown = send(net, 99, 1000, 0);
            net.runFor(Duration.ofSeconds(1));
            assertThat(arrivals).isEmpty();
            assertThat(whileDown.discarded).isTrue();
            assertThat(net.direction("a", "b").failureDrops()).isEqualTo(6);
            net.restoreLink("a", "b");
            send(net, 100, 1000, 0);
            net.runFor(Duration.ofSeconds(1));
            assertThat(arrivals).extracting(p -> p.id).containsExactly(100);
        }
    }

    @Test
    void aChangeAppliesToLaterPackets() {
        try (SimNetwork net = pair(LinkSpec.delay(Duration.ofMillis(10)), 1)) {
            long t0 = net.now();
            send(net, 1, 100, 0);
            net.changeLink("a", "b", LinkSpec.delay(Duration.ofMillis(30)));
            send(net, 2, 100, 0);
            net.runFor(Duration.ofSeconds(1));
            assertThat(arrivals).extracting(p -> p.arrivedAt - t0).containsExactly(10 * MS, 30 * MS);
        }
    }
}
