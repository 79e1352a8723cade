package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Two real nodes on loopback with the epoll transport: best-effort bursts leave in UDP GSO sends
 * and are read with UDP GRO, and arrive whole and in order; with offload switched off the same
 * traffic goes one datagram per send. Skipped where epoll or UDP GSO is unavailable.
 */
class UdpOffloadTest {
    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    /** A started pair a-b and what b received on port 7, each message's first four bytes its number. */
    private record Pair(NodeRuntime runtime, OverlayNode a, OverlayNode b, OverlayPort port,
            ConcurrentLinkedQueue<Integer> received, List<Integer> readBufferCapacities) implements AutoCloseable {
        static Pair start(boolean offload, MeterRegistry registry) {
            NodeRuntime runtime = NodeRuntime.builder().threads(2).transport(TransportKind.EPOLL).udpOffload(offload)
                    .build();
            OverlayNode a = OverlayNode.start(NodeConfig.builder("gso-a").loopback(0).meterRegistry(registry).build(),
                    runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("gso-b").loopback(0).meterRegistry(registry).build(),
                    runtime);
            a.addNeighbour(new NeighbourConfig("gso-b", b.localAddress()));
            b.addNeighbour(new NeighbourConfig("gso-a", a.localAddress()));
            ConcurrentLinkedQueue<Integer> received = new ConcurrentLinkedQueue<>();
            List<Integer> capacities = new java.util.concurrent.CopyOnWriteArrayList<>();
            b.openPort(7, m -> {
                ByteBuf p = m.payload();
                received.add(p.getInt(p.readerIndex()));
                ByteBuf root = p.unwrap();
                while (root != null && root.unwrap() != null) {
                    root = root.unwrap();
                }
                capacities.add(root == null ? p.capacity() : root.capacity());
            });
            OverlayPort port = a.openPort(7, m -> {});
            Eventually.await("a reaches b", () -> a.reachableNodes(RoutingMetric.HOPS).contains("gso-b"));
            return new Pair(runtime, a, b, port, received, capacities);
        }

        void send(int number, int size) {
            byte[] payload = ByteBuffer.allocate(size).putInt(number).array();
            SendResult r;
            while ((r = port.send(b.id(), 7, payload, RoutingMetric.HOPS)) == SendResult.BACK_PRESSURED) {
                Thread.onSpinWait();
            }
            assertThat(r).isEqualTo(SendResult.ACCEPTED);
        }

        @Override
        public void close() {
            b.stop();
            a.stop();
            runtime.close();
        }
    }

    private static double counter(MeterRegistry registry, String name) {
        return registry.get(name).tag("node", "gso-a").functionCounter().count();
    }

    @Test
    void aBurstLeavesInSegmentedSendsAndArrivesWholeAndInOrder() {
        assumeTrue(io.netty.channel.epoll.EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP GSO (epoll) unavailable");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Pair pair = Pair.start(true, registry)) {
            assertThat(pair.b().readsWithGro()).isTrue();
            // Messages of one datagram, then fragmented ones whose last datagram is shorter, among the
            // link's hellos. Bursts of about 200 KB, each awaited, so that even a kernel that caps
            // the socket buffer far below the requested 4 MiB loses nothing.
            List<Integer> expected = new ArrayList<>();
            for (int burst = 0; burst < 10; burst++) {
                for (int i = burst * 200; i < (burst + 1) * 200; i++) {
                    pair.send(i, 1000);
                    expected.add(i);
                }
                int sent = expected.size();
                Eventually.await("b receives " + sent, () -> pair.received().size() == sent);
            }
            for (int i = 2000; i < 2060; i++) {
                pair.send(i, 3000);
                expected.add(i);
            }
            Eventually.await("b receives all 2060", () -> pair.received().size() == 2060);

            assertThat(new ArrayList<>(pair.received())).containsExactlyElementsOf(expected);
            assertThat(counter(registry, "hopwise.node.udp.segmented.sends")).isPositive();
            assertThat(counter(registry, "hopwise.node.udp.segmented.datagrams"))
                    .isGreaterThan(2 * counter(registry, "hopwise.node.udp.segmented.sends"));
        }
        assertThat(registry.find("hopwise.node.udp.segmented.sends").functionCounter()).isNull();
    }

    @Test
    void aLoneDatagramTheNodeMayKeepIsCopiedOutOfItsLargeReadBuffer() {
        assumeTrue(io.netty.channel.epoll.EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP GSO (epoll) unavailable");
        try (Pair pair = Pair.start(true, new SimpleMeterRegistry())) {
            // A real-time datagram may stay in a link's history: read alone into a 64 KiB GRO buffer,
            // it is copied into a buffer of its own size, so the history never pins the read buffer.
            RealTimeFlow flow = pair.port().openRealTime("gso-b", 7);
            ByteBuf rt = io.netty.buffer.Unpooled.wrappedBuffer(ByteBuffer.allocate(100).putInt(1).array());
            assertThat(flow.send(rt)).isEqualTo(SendResult.ACCEPTED);
            rt.release();
            Eventually.await("b receives it", () -> pair.received().size() == 1);
            assertThat(pair.readBufferCapacities()).singleElement().satisfies(c -> assertThat(c).isLessThan(8192));

            // A best-effort datagram is forwarded or delivered within its batch (a delivered payload is
            // valid only during the callback), so it is handed over where it was read, without a copy.
            pair.send(2, 100);
            Eventually.await("b receives it", () -> pair.received().size() == 2);
            assertThat(pair.readBufferCapacities().get(1)).isGreaterThanOrEqualTo(8192);
        }
    }

    @Test
    void withOffloadOffOrOnAnImpairedLinkEveryDatagramIsSentAlone() {
        assumeTrue(io.netty.channel.epoll.Epoll.isAvailable(), "epoll unavailable");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Pair pair = Pair.start(false, registry)) {
            assertThat(pair.b().readsWithGro()).isFalse();
            for (int i = 0; i < 500; i++) {
                pair.send(i, 1000);
            }
            Eventually.await("b receives all 500", () -> pair.received().size() == 500);
            assertThat(counter(registry, "hopwise.node.udp.segmented.sends")).isZero();
        }
        assumeTrue(io.netty.channel.epoll.EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP GSO unavailable");
        SimpleMeterRegistry impairedRegistry = new SimpleMeterRegistry();
        try (Pair pair = Pair.start(true, impairedRegistry)) {
            // Impairment decides per datagram, so an impaired link gets no runs.
            pair.a().impair("gso-b", Direction.OUTBOUND, ImpairmentConfig.builder().delay(
                    java.time.Duration.ofMillis(1)).build());
            // Counted from here: the nodes' own traffic before the impairment may have gone in a run.
            double before = counter(impairedRegistry, "hopwise.node.udp.segmented.sends");
            for (int i = 0; i < 500; i++) {
                pair.send(i, 1000);
            }
            Eventually.await("b receives all 500", () -> pair.received().size() == 500);
            assertThat(counter(impairedRegistry, "hopwise.node.udp.segmented.sends")).isEqualTo(before);
        }
    }
}
