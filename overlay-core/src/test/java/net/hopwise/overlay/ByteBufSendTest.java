package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The buffer forms of the sends, as a relay uses them over real sockets: the caller keeps its buffer
 * (released by the test, so leak detection would catch a send that kept or released it) and its
 * indices, and real-time deliveries carry the flow's sequence number and the sender's time stamp.
 */
class ByteBufSendTest {
    private record Seen(String text, boolean realTime, long sequence, long sendTime) {}

    private NodeRuntime runtime;
    private OverlayNode a;
    private OverlayNode b;

    /** Two nodes a and b on loopback, linked, a routing to b. */
    @BeforeEach
    void link() {
        runtime = NodeRuntime.create(1);
        a = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
        b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build(), runtime);
        a.addNeighbour(new NeighbourConfig("b", new InetSocketAddress("127.0.0.1", b.localAddress().getPort())));
        b.addNeighbour(new NeighbourConfig("a", new InetSocketAddress("127.0.0.1", a.localAddress().getPort())));
        Eventually.await("a routes to b", () -> a.reachableNodes(RoutingMetric.LATENCY).contains("b"));
    }

    @AfterEach
    void stop() {
        b.stop();
        a.stop();
        runtime.close();
    }

    @Test
    void buffersAreCopiedAndLeftToTheCallerAndRealTimeDeliveriesCarryTheirFlowMetadata() {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        b.openPort(9, m -> seen.add(new Seen(m.payload().toString(StandardCharsets.UTF_8), m.isRealTime(),
                m.flowSequence(), m.sendTimeNanos())));
        OverlayPort port = a.openPort(1, m -> {});
        RealTimeFlow flow = port.openRealTime("b", 9);

        long before = System.nanoTime();
        for (String text : List.of("rtp-0", "rtp-1", "rtp-2")) {
            ByteBuf buf = buffer("xx" + text);
            buf.skipBytes(2); // a relay's buffer rarely starts at index 0
            assertThat(flow.send(buf)).isEqualTo(SendResult.ACCEPTED);
            assertThat(buf.readerIndex()).isEqualTo(2);
            assertThat(buf.refCnt()).isEqualTo(1);
            buf.release();
        }
        ByteBuf plain = buffer("datagram");
        assertThat(port.send(NodeId.ofName("b"), 9, plain, RoutingMetric.LATENCY)).isEqualTo(SendResult.ACCEPTED);
        assertThat(plain.readableBytes()).isEqualTo(8);
        plain.release();

        Eventually.await("four messages at b", () -> seen.size() == 4);
        List<Seen> rt = seen.stream().filter(Seen::realTime).toList();
        assertThat(rt).extracting(Seen::text).containsExactlyInAnyOrder("rtp-0", "rtp-1", "rtp-2");
        assertThat(rt).extracting(Seen::sequence).containsExactlyInAnyOrder(0L, 1L, 2L);
        // One process, one monotonic clock: the stamp lies between the first send and now.
        assertThat(rt).allSatisfy(s -> assertThat(s.sendTime()).isBetween(before, System.nanoTime()));
        Seen other = seen.stream().filter(s -> !s.realTime()).findFirst().orElseThrow();
        assertThat(other.text()).isEqualTo("datagram");
        assertThat(other.sequence()).isEqualTo(ReceivedMessage.NOT_REAL_TIME);
        assertThat(other.sendTime()).isEqualTo(ReceivedMessage.NOT_REAL_TIME);
    }

    @Test
    void aReliableSessionTakesABufferAndLeavesItToTheCaller() {
        List<String> got = new CopyOnWriteArrayList<>();
        b.openPort(9, m -> {});
        b.acceptSessions(9, s -> m -> got.add(m.payload().toString(StandardCharsets.UTF_8)));
        ReliableSession session = a.openPort(1, m -> {}).openReliable("b", 9, m -> {});
        byte[] big = new byte[5000];
        java.util.Arrays.fill(big, (byte) 'z');
        for (ByteBuf buf : List.of(buffer("one"), buffer("two"), buffer(new String(big, StandardCharsets.UTF_8)))) {
            assertThat(session.send(buf)).isEqualTo(SendResult.ACCEPTED);
            assertThat(buf.refCnt()).isEqualTo(1);
            buf.release();
        }
        Eventually.await("three messages in order at b", () -> got.size() == 3);
        assertThat(got.subList(0, 2)).containsExactly("one", "two");
        assertThat(got.get(2)).hasSize(5000);
    }

    private static ByteBuf buffer(String text) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.buffer();
        buf.writeCharSequence(text, StandardCharsets.UTF_8);
        return buf;
    }
}
