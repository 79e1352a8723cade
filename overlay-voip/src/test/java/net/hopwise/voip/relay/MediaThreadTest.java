package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.TransportKind;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.HeldLoop;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The phones' sockets on a loop of their own: packets read there in one turn reach the relay on the
 * node's loop in one task, intact and in order, stamped with the time they were read; packets the relay sends
 * to a phone leave from the stream's socket; a port taken is refused at once, and closing frees every
 * port. With a threshold, each call's sockets go on the node's loop or the media loop by the calls held.
 */
class MediaThreadTest {
    /** What the relay was handed: per packet its socket, first byte, read time, and whether on the node's loop. */
    /** Records each phone packet handed to the relay; {@code phonePort}, when not 0, is the only sender expected. */
    private static MediaSink recording(List<Seen> seen, NodeLoop loop, int phonePort) {
        return new MediaSink() {
            @Override
            public void onPhoneMedia(int rtpPort, boolean rtcpSocket, ByteBuf packet, InetSocketAddress source,
                    long now) {
                if (phonePort != 0) {
                    assertThat(source.getPort()).isEqualTo(phonePort);
                }
                seen.add(new Seen(rtpPort, rtcpSocket, packet.getByte(packet.readerIndex()),
                        packet.readableBytes(), now, System.nanoTime(), loop.loop().inEventLoop()));
            }

            @Override
            public void onNodeMedia(int overlayPort, ByteBuf packet, long flowSequence, long sendTimeNanos,
                    boolean recovered, long now) {
            }
        };
    }

    private record Seen(int rtpPort, boolean rtcpSocket, int firstByte, int length, long at, long handled,
            boolean onNodeLoop) { }

    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"NIO", "AUTO"})
    void aTurnsPacketsReachTheNodesLoopInOneTaskAndRepliesLeaveFromTheStreamsSocket(TransportKind transport)
            throws Exception {
        assumeTrue(java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/net/udp")), "Linux");
        try (NodeRuntime runtime = NodeRuntime.create(1, transport);
                OverlayNode node = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
                DatagramSocket phone = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            InetAddress local = InetAddress.getByName("127.0.0.1");
            NodeLoop loop = NodeLoop.of(node);
            EventLoopGroup group = loop.newPhoneLoopGroup();
            EventLoop phoneLoop = group.next();
            List<Seen> seen = new CopyOnWriteArrayList<>();
            RelayMedia media = new RelayMedia(node, loop, local, phoneLoop);
            media.proxy(recording(seen, loop, phone.getLocalPort()));
            int first = LoopbackPorts.freeBlock(local, 4);
            int second = first + 2;
            try {
                assertThat(onLoop(loop, () -> media.bindPhonePorts(first) && media.bindPhonePorts(second))).isTrue();
                // Bound at once although registered with another loop: the same port again is refused.
                assertThat(onLoop(loop, () -> media.bindPhonePorts(first))).as("a port already bound").isFalse();

                // One packet to each of the four sockets while the phones' loop serves a long turn, each
                // in its socket's queue before the loop goes on: the next turn reads all four (on either
                // transport) and hands them to the node's loop in one task.
                long before = System.nanoTime();
                try (HeldLoop held = HeldLoop.hold(phoneLoop)) {
                    for (int i = 0; i < 4; i++) {
                        send(phone, local, first + i, 10 + i);
                    }
                    Eventually.await("the four packets queued in their sockets",
                            () -> queued(first) && queued(first + 1) && queued(second) && queued(second + 1));
                }
                Eventually.await("all four handed to the relay", () -> seen.size() == 4);
                assertThat(onLoop(loop, media::handOversFromPhones)).as("one task for the turn").isEqualTo(1L);
                assertThat(seen).allMatch(Seen::onNodeLoop, "handled on the node's loop");
                assertThat(seen).allMatch(s -> s.length() == 172 && s.at() - before > 0 && s.handled() - s.at() >= 0,
                        "whole, stamped when read, before the node's loop took it");
                assertThat(seen).extracting(s -> s.rtpPort() + (s.rtcpSocket() ? 1 : 0), Seen::firstByte)
                        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(first, 10),
                                org.assertj.core.groups.Tuple.tuple(first + 1, 11),
                                org.assertj.core.groups.Tuple.tuple(second, 12),
                                org.assertj.core.groups.Tuple.tuple(second + 1, 13));

                // A backlog on one socket arrives whole and in order, however many turns read it.
                seen.clear();
                try (HeldLoop held = HeldLoop.hold(phoneLoop)) {
                    for (int i = 0; i < 6; i++) {
                        send(phone, local, second, 30 + i);
                    }
                }
                Eventually.await("all six handed to the relay", () -> seen.size() == 6);
                assertThat(seen).allMatch(Seen::onNodeLoop, "handled on the node's loop");
                assertThat(seen).extracting(Seen::firstByte).containsExactly(30, 31, 32, 33, 34, 35);

                // The relay's packets for the phone, sent on the node's loop, leave from the stream's sockets.
                InetSocketAddress to = (InetSocketAddress) phone.getLocalSocketAddress();
                onLoop(loop, () -> {
                    for (int i = 0; i < 3; i++) {
                        ByteBuf packet = Unpooled.buffer(172).writeByte(40 + i).writeZero(171);
                        try {
                            media.sendToPhone(first, i == 2, to, packet);
                        } finally {
                            packet.release();
                        }
                    }
                    return null;
                });
                phone.setSoTimeout((int) TimeUnit.SECONDS.toMillis(30));
                for (int i = 0; i < 3; i++) {
                    DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
                    phone.receive(in);
                    assertThat(in.getLength()).isEqualTo(172);
                    assertThat((int) in.getData()[0]).isEqualTo(40 + i);
                    assertThat(in.getPort()).isEqualTo(i == 2 ? first + 1 : first);
                }
            } finally {
                onLoop(loop, () -> {
                    media.close();
                    return null;
                });
                group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            }
            awaitPortsFree(local, first, 4);
        }
    }

    /**
     * The media thread chosen per call: a relay that holds fewer than its threshold of calls opens the
     * next call's pair on the node's loop, one that holds as many or more on the media loop; packets
     * cross both kinds both ways; a pair opened ahead for the next call stays on the loop chosen when
     * it was opened; every port is free after.
     */
    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"NIO", "AUTO"})
    void callsUnderTheThresholdStayOnTheNodesLoopAndTheNextGoToTheMediaLoop(TransportKind transport)
            throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(1, transport);
                OverlayNode node = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
                DatagramSocket phone = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            InetAddress local = InetAddress.getByName("127.0.0.1");
            NodeLoop loop = NodeLoop.of(node);
            EventLoopGroup group = loop.newPhoneLoopGroup();
            EventLoop mediaLoop = group.next();
            List<Seen> seen = new CopyOnWriteArrayList<>();
            RelayMedia media = new RelayMedia(node, loop, local, mediaLoop, 2);
            media.proxy(recording(seen, loop, 0));
            int first = LoopbackPorts.freeBlock(local, 10);
            int[] pairs = {first, first + 2, first + 4, first + 6, first + 8};
            try {
                // Two calls under the threshold of two, on the node's loop; the third on the media loop.
                for (int i = 0; i < 3; i++) {
                    int port = pairs[i];
                    assertThat(onLoop(loop, () -> media.bindPhonePorts(port))).isTrue();
                }
                assertThat(onLoop(loop, () -> media.loopOf(pairs[0]))).isSameAs(loop.loop());
                assertThat(onLoop(loop, () -> media.loopOf(pairs[1]))).isSameAs(loop.loop());
                assertThat(onLoop(loop, () -> media.loopOf(pairs[2]))).isSameAs(mediaLoop);
                assertThat(onLoop(loop, media::mediaLoopCalls)).isEqualTo(1);

                // Media both ways through a call of each loop: in from the phone to the relay on the
                // node's loop, out from the relay to the phone from the call's own sockets.
                send(phone, local, pairs[0], 50);
                send(phone, local, pairs[2], 52);
                send(phone, local, pairs[2] + 1, 53);
                Eventually.await("three packets handed to the relay", () -> seen.size() == 3);
                assertThat(seen).allMatch(Seen::onNodeLoop, "handled on the node's loop");
                assertThat(seen).extracting(s -> s.rtpPort() + (s.rtcpSocket() ? 1 : 0), Seen::firstByte)
                        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(pairs[0], 50),
                                org.assertj.core.groups.Tuple.tuple(pairs[2], 52),
                                org.assertj.core.groups.Tuple.tuple(pairs[2] + 1, 53));
                assertThat(onLoop(loop, media::handOversFromPhones)).as("only the media loop's packets handed over")
                        .isBetween(1L, 2L);
                InetSocketAddress to = (InetSocketAddress) phone.getLocalSocketAddress();
                onLoop(loop, () -> {
                    int[][] out = {{pairs[0], 0, 60}, {pairs[2], 0, 62}, {pairs[2], 1, 63}, {pairs[1], 1, 61}};
                    for (int[] o : out) {
                        ByteBuf packet = Unpooled.buffer(172).writeByte(o[2]).writeZero(171);
                        try {
                            media.sendToPhone(o[0], o[1] == 1, to, packet);
                        } finally {
                            packet.release();
                        }
                    }
                    return null;
                });
                phone.setSoTimeout((int) TimeUnit.SECONDS.toMillis(30));
                java.util.Map<Integer, Integer> fromPort = new java.util.HashMap<>();
                for (int i = 0; i < 4; i++) {
                    DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
                    phone.receive(in);
                    assertThat(in.getLength()).isEqualTo(172);
                    fromPort.put(in.getPort(), (int) in.getData()[0]);
                }
                assertThat(fromPort).containsOnly(java.util.Map.entry(pairs[0], 60), java.util.Map.entry(pairs[2], 62),
                        java.util.Map.entry(pairs[2] + 1, 63), java.util.Map.entry(pairs[1] + 1, 61));

                // A call on the node's loop ends: two held, so the next still goes to the media loop.
                onLoop(loop, () -> {
                    media.unbindPhonePorts(pairs[0]);
                    return null;
                });
                assertThat(onLoop(loop, () -> media.bindPhonePorts(pairs[3]))).isTrue();
                assertThat(onLoop(loop, () -> media.loopOf(pairs[3]))).isSameAs(mediaLoop);

                // Down to one call held: the next call's pair is opened ahead on the node's loop, and
                // is taken there although a call that arrived first took the relay to two meanwhile
                // (the choice is made when a pair is opened); the call after goes to the media loop.
                onLoop(loop, () -> {
                    media.unbindPhonePorts(pairs[1]);
                    media.unbindPhonePorts(pairs[3]);
                    media.preparePhonePorts(pairs[4]);
                    return null;
                });
                Eventually.await("the next pair opened ahead", () -> {
                    try {
                        return onLoop(loop, media::spareRtpPort) == pairs[4];
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThat(onLoop(loop, () -> media.loopOf(pairs[4]))).isSameAs(loop.loop());
                assertThat(onLoop(loop, () -> media.bindPhonePorts(pairs[0]))).isTrue();
                assertThat(onLoop(loop, () -> media.loopOf(pairs[0]))).as("one call held: node's loop")
                        .isSameAs(loop.loop());
                assertThat(onLoop(loop, () -> media.bindPhonePorts(pairs[4]))).isTrue();
                assertThat(onLoop(loop, media::spareRtpPort)).isEqualTo(-1);
                assertThat(onLoop(loop, () -> media.loopOf(pairs[4]))).as("the prepared pair, where it was opened")
                        .isSameAs(loop.loop());
                assertThat(onLoop(loop, () -> media.bindPhonePorts(pairs[1]))).isTrue();
                assertThat(onLoop(loop, () -> media.loopOf(pairs[1]))).as("three held: the media loop")
                        .isSameAs(mediaLoop);
                assertThat(onLoop(loop, media::mediaLoopCalls)).isEqualTo(2);
                seen.clear();
                send(phone, local, pairs[4], 70);
                send(phone, local, pairs[0] + 1, 71);
                send(phone, local, pairs[1], 72);
                Eventually.await("all three handed to the relay", () -> seen.size() == 3);
                assertThat(seen).extracting(Seen::rtpPort, Seen::firstByte).containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(pairs[4], 70), org.assertj.core.groups.Tuple.tuple(pairs[0], 71),
                        org.assertj.core.groups.Tuple.tuple(pairs[1], 72));
                assertThat(onLoop(loop, media::socketCount)).isEqualTo(8);
            } finally {
                onLoop(loop, () -> {
                    media.close();
                    return null;
                });
                group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            }
            awaitPortsFree(local, first, 10);
        }
    }

    /**
     * Sockets are closed by their loops: a port is free soon after close(), not necessarily when it
     * returns. On NIO the JDK keeps the descriptor of a channel registered with a selector until the
     * loop's next select drops its key; a media-loop socket closes when that loop runs the close; on
     * epoll a socket closed on its own loop is free at once (probed 2026-11-26). Twice in CI, on epoll,
     * two pairs of the node's loop were still bound after the media loop's shutdown; why is not known.
     * A socket never closed keeps its port and still fails here.
     */
    private static void awaitPortsFree(InetAddress local, int first, int n) {
        Eventually.await("every port of " + first + " to " + (first + n - 1) + " free again",
                () -> LoopbackPorts.taken(local, first, n).isEmpty(),
                () -> "still bound: " + LoopbackPorts.taken(local, first, n));
    }

    private static void send(DatagramSocket phone, InetAddress local, int port, int firstByte) throws Exception {
        byte[] rtp = new byte[172];
        rtp[0] = (byte) firstByte;
        phone.send(new DatagramPacket(rtp, rtp.length, new InetSocketAddress(local, port)));
    }

    /**
     * Whether the loopback socket on {@code port} holds a datagram (Linux's /proc/net/udp, rx_queue):
     * what was sent on loopback may still wait in the kernel's backlog when the send returns.
     */
    private static boolean queued(int port) {
        try {
            String local = String.format("0100007F:%04X", port);
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/net/udp"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 4 && f[1].equals(local)) {
                    return Long.parseLong(f[4].substring(f[4].indexOf(':') + 1), 16) > 0;
                }
            }
            return false;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T onLoop(NodeLoop loop, Callable<T> query) throws Exception {
        return loop.loop().submit(query).get();
    }
}
