package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;

import io.netty.channel.socket.DatagramChannel;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.TransportKind;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.HeldLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The relay lives on its node's event loop, on either transport, and binds its sockets there at once. */
class NodeLoopTest {
    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"NIO", "AUTO"})
    void theRelayRunsOnItsNodesLoopAndATakenPortIsRefusedAtOnce(TransportKind transport) throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(1, transport);
                OverlayNode node = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
                SipRelay relay = SipRelay.start(node, RelayConfig.builder()
                        .sipAddress(new InetSocketAddress("127.0.0.1", 0)).mediaAddress("127.0.0.1").build());
                DatagramSocket taken = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            // A packet read by the node is handled by the relay on the same thread: no hand-over.
            Boolean sameThread = node.inspect(stack -> relay.loop().inEventLoop());
            assertThat(sameThread).isTrue();
            assertThat(node.pipelineNames()).noneMatch(n -> n.startsWith("voip-relay-loop"));

            NodeLoop loop = NodeLoop.of(node);
            InetAddress local = InetAddress.getByName("127.0.0.1");
            boolean[] results = loop.loop().submit(() -> {
                DatagramChannel onTaken = loop.newDatagram(local);
                boolean bound = loop.registerAndBind(onTaken, taken.getLocalSocketAddress());
                DatagramChannel free = loop.newDatagram(local);
                boolean freeBound = loop.registerAndBind(free, new InetSocketAddress(local, 0));
                boolean result = freeBound && free.isActive() && !onTaken.isOpen();
                free.close();
                return new boolean[] {bound, result};
            }).get();
            assertThat(results[0]).as("bound to a taken port").isFalse();
            assertThat(results[1]).as("a free port bound at once, the failed channel closed").isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"NIO", "AUTO"})
    void aMediaSocketReadsOncePerWakeUpAndLeavesNoneBehind(TransportKind transport) throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(1, transport);
                OverlayNode node = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
                DatagramSocket phone = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            NodeLoop loop = NodeLoop.of(node);
            InetAddress local = InetAddress.getByName("127.0.0.1");
            java.util.concurrent.atomic.AtomicInteger received = new java.util.concurrent.atomic.AtomicInteger();
            DatagramChannel media = loop.loop().submit(() -> {
                DatagramChannel ch = loop.newMediaDatagram(local);
                ch.pipeline().addLast(new io.netty.channel.SimpleChannelInboundHandler<io.netty.channel.socket.DatagramPacket>() {
                    @Override
                    protected void channelRead0(io.netty.channel.ChannelHandlerContext ctx,
                            io.netty.channel.socket.DatagramPacket packet) {
                        received.incrementAndGet();
                    }
                });
                assertThat(loop.registerAndBind(ch, new InetSocketAddress(local, 0))).isTrue();
                return ch;
            }).get();
            try {
                assertThat(((io.netty.channel.MaxMessagesRecvByteBufAllocator) media.config().getRecvByteBufAllocator())
                        .maxMessagesPerRead()).as("one read system call per wake-up").isEqualTo(1);
                // Five packets wait in the socket while the loop is held: one read per wake-up must still
                // fetch them all, without a sixth packet to wake it.
                java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
                loop.loop().execute(() -> {
                    try {
                        hold.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                java.net.SocketAddress to = media.localAddress();
                for (int i = 0; i < 5; i++) {
                    phone.send(new java.net.DatagramPacket(new byte[172], 172, to));
                }
                hold.countDown();
                net.hopwise.overlay.testing.Eventually.await("all five read", () -> received.get() == 5);
            } finally {
                media.close().sync();
            }
        }
    }
    @Test
    void aBackloggedMediaSocketGivesSeveralPacketsToOneWakeUpOnEpoll() throws Exception {
        assumeTrue(io.netty.channel.epoll.Epoll.isAvailable(), "epoll");
        try (NodeRuntime runtime = NodeRuntime.create(1, TransportKind.AUTO);
                OverlayNode node = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
                DatagramSocket phone = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            NodeLoop loop = NodeLoop.of(node);
            InetAddress local = InetAddress.getByName("127.0.0.1");
            // What each wake-up read (packets between two read-completes), and the packets' first bytes.
            List<Integer> perWakeUp = new CopyOnWriteArrayList<>();
            List<Integer> firstBytes = new CopyOnWriteArrayList<>();
            int[] inThisWakeUp = {0};
            DatagramChannel media = loop.loop().submit(() -> {
                DatagramChannel ch = loop.newMediaDatagram(local);
                ch.pipeline().addLast(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        assertThat(packet.content().readableBytes()).isEqualTo(172);
                        firstBytes.add((int) packet.content().getByte(packet.content().readerIndex()));
                        inThisWakeUp[0]++;
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        if (inThisWakeUp[0] > 0) {
                            perWakeUp.add(inThisWakeUp[0]);
                            inThisWakeUp[0] = 0;
                        }
                    }
                });
                assertThat(loop.registerAndBind(ch, new InetSocketAddress(local, 0))).isTrue();
                return ch;
            }).get();
            try {
                assertThat(media).isInstanceOf(io.netty.channel.epoll.EpollDatagramChannel.class);
                // Six packets queue while the loop serves a long turn, as 20 ms packets do when turns
                // outlast 20 ms: read one per wake-up, the socket would never catch up.
                try (HeldLoop held = HeldLoop.hold(loop.loop())) {
                    java.net.SocketAddress to = media.localAddress();
                    for (int i = 0; i < 6; i++) {
                        byte[] rtp = new byte[172];
                        rtp[0] = (byte) i;
                        phone.send(new java.net.DatagramPacket(rtp, rtp.length, to));
                    }
                }
                // A wake-up is counted at its read-complete, which follows its last packet's read.
                Eventually.await("all six read and both wake-ups complete",
                        () -> perWakeUp.stream().mapToInt(Integer::intValue).sum() == 6);
                assertThat(firstBytes).containsExactly(0, 1, 2, 3, 4, 5);
                assertThat(perWakeUp).containsExactly(NodeLoop.MEDIA_DATAGRAMS_PER_READ, 6 - NodeLoop.MEDIA_DATAGRAMS_PER_READ);
            } finally {
                media.close().sync();
            }
        }
    }
}
