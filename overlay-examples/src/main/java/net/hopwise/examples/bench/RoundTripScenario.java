package net.hopwise.examples.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.MessageHandler;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.ReceivedMessage;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.TransportKind;

/**
 * Round-trip time with one 64-byte message outstanding: over a chain of overlay nodes, and over
 * direct UDP between two Netty channels.
 *
 * <p>Every hop hands over to another thread, as between machines: direct UDP's two channels each
 * have a single-thread runtime of their own, and a chain's neighbours are on different threads in
 * every {@link Layout} but the one-thread reference. The ping-pong is driven from the event loops: the
 * client's reply callback stamps and sends the next ping, the server's callback echoes. With one
 * message outstanding only one thread has work at a time; loops that spin before sleeping still poll
 * while idle, so with a thread per node the 4 loops of the chain take turns on 2 cores. All runtimes
 * come from the run's {@link BenchmarkSettings}, so overlay and baselines have the same loop settings.
 *
 * About 400 lines: every round-trip layout (direct UDP, the plain relay, the overlay on each thread
 * layout) is here so that baseline and overlay are driven by the same ping-pong code.
 */
final class RoundTripScenario {
    static final int PORT = 7;

    private RoundTripScenario() {}

    /** Ping-pong between the two ends of a chain of {@code hops + 1} nodes, each on its own thread. */
    static LatencySamples overlay(int hops, int warmup, int count, BenchmarkSettings settings) {
        return overlay(hops, warmup, count, Layout.THREAD_PER_NODE, settings);
    }

    /** How a chain's nodes are placed on event-loop threads. */
    enum Layout {
        /** Every node on a single-thread runtime of its own, as in a process of its own. */
        THREAD_PER_NODE("t"),
        /** Two single-thread runtimes, one per core, neighbours alternating between them. */
        LOOP_PER_CORE("c"),
        /** All nodes on one single-thread runtime: no hand-overs at all. */
        ONE_THREAD("s");

        final String tag;

        Layout(String tag) {
            this.tag = tag;
        }

        /** Event-loop threads a chain of {@code nodes} takes; node i runs on thread i mod that. */
        int loops(int nodes) {
            return switch (this) {
                case THREAD_PER_NODE -> nodes;
                case LOOP_PER_CORE -> 2;
                case ONE_THREAD -> 1;
            };
        }
    }

    /**
     * Ping-pong between the two ends of a chain of {@code hops + 1} nodes placed on threads as
     * {@code layout} says.
     */
    static LatencySamples overlay(int hops, int warmup, int count, Layout layout, BenchmarkSettings settings) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i <= hops; i++) {
            names.add("rtt" + hops + layout.tag + "-" + (char) ('a' + i));
        }
        List<NodeRuntime> loops = new ArrayList<>();
        for (int i = 0; i < layout.loops(hops + 1); i++) {
            loops.add(settings.runtime());
        }
        try (LoopbackOverlay overlay = LoopbackOverlay.roundRobin(names, loops)) {
            for (int i = 0; i < hops; i++) {
                overlay.link(names.get(i), names.get(i + 1));
            }
            overlay.awaitConvergence(Duration.ofSeconds(30));
            OverlayNode client = overlay.node(names.get(0));
            OverlayNode server = overlay.node(names.get(hops));
            int pathNodes = client.path(server.name(), LoopbackOverlay.METRIC).size();
            if (pathNodes != hops + 1) {
                throw new IllegalStateException("expected a path of " + hops + " hops, got " + (pathNodes - 1));
            }
            Echo echo = new Echo();
            echo.port = server.openPort(PORT, echo);
            PingPong pingPong = new PingPong(warmup, count);
            Pinger pinger = new Pinger(pingPong, server.id());
            pinger.port = client.openPort(PORT, pinger);
            pingPong.start();
            SendResult first = pinger.port.send(server.id(), PORT, pinger.payload, LoopbackOverlay.METRIC);
            if (first != SendResult.ACCEPTED) {
                throw new IllegalStateException("first ping was not accepted: " + first);
            }
            return pingPong.await(hops + "-hop overlay round trip");
        }
    }

    /** Echoes every message back to the port it came from. */
    private static final class Echo implements MessageHandler {
        private final byte[] buffer = new byte[BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES];
        volatile OverlayPort port;

        @Override
        public void onMessage(ReceivedMessage m) {
            ByteBuf p = m.payload();
            p.getBytes(p.readerIndex(), buffer, 0, Math.min(buffer.length, p.readableBytes()));
            port.send(m.source(), m.sourcePort(), buffer, LoopbackOverlay.METRIC);
        }
    }

    /** Receives each reply and sends the next ping from the client node's event loop. */
    private static final class Pinger implements MessageHandler {
        final byte[] payload = new byte[BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES];
        private final PingPong pingPong;
        private final NodeId server;
        volatile OverlayPort port;

        Pinger(PingPong pingPong, NodeId server) {
            this.pingPong = pingPong;
            this.server = server;
        }

        @Override
        public void onMessage(ReceivedMessage m) {
            if (pingPong.onReply(System.nanoTime())) {
                SendResult r = port.send(server, PORT, payload, LoopbackOverlay.METRIC);
                if (r != SendResult.ACCEPTED) {
                    pingPong.fail("ping refused: " + r);
                }
            }
        }
    }

    // ------------------------------------------------------------------ direct UDP, Netty

    /**
     * Ping-pong between two Netty datagram channels, each on a single-thread runtime of its own, on
     * the transport the nodes use, with the nodes' socket buffers and receive allocator; each side
     * writes in its read callback and flushes when the read batch completes, as a node does.
     */
    static LatencySamples directNetty(int warmup, int count, BenchmarkSettings settings) {
        NodeRuntime clientRuntime = settings.runtime();
        NodeRuntime serverRuntime = settings.runtime();
        Channel server = null;
        Channel client = null;
        try {
            server = bind(serverRuntime, new NettyEcho());
            PingPong pingPong = new PingPong(warmup, count);
            InetSocketAddress serverAddress = (InetSocketAddress) server.localAddress();
            client = bind(clientRuntime, new NettyPinger(pingPong, serverAddress));
            pingPong.start();
            client.writeAndFlush(new DatagramPacket(
                    client.alloc().buffer(BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES)
                            .writeZero(BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES), serverAddress));
            return pingPong.await("direct UDP round trip");
        } finally {
            if (client != null) {
                client.close().syncUninterruptibly();
            }
            if (server != null) {
                server.close().syncUninterruptibly();
            }
            clientRuntime.close();
            serverRuntime.close();
        }
    }

    private static Channel bind(NodeRuntime runtime, io.netty.channel.ChannelHandler handler) {
        Class<? extends DatagramChannel> type = runtime.transport() == TransportKind.EPOLL
                ? EpollDatagramChannel.class : NioDatagramChannel.class;
        return new Bootstrap()
                .group(runtime.group())
                .channel(type)
                .option(ChannelOption.SO_RCVBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES)
                .option(ChannelOption.SO_SNDBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES)
                .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(2048))
                .handler(handler)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .syncUninterruptibly()
                .channel();
    }

    private static final class NettyEcho extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            ByteBuf in = packet.content();
            ByteBuf out = ctx.alloc().buffer(in.readableBytes()).writeBytes(in, in.readerIndex(), in.readableBytes());
            ctx.write(new DatagramPacket(out, packet.sender()), ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    private static final class NettyPinger extends SimpleChannelInboundHandler<DatagramPacket> {
        private final PingPong pingPong;
        private final InetSocketAddress server;

        NettyPinger(PingPong pingPong, InetSocketAddress server) {
            this.pingPong = pingPong;
            this.server = server;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            if (pingPong.onReply(System.nanoTime())) {
                ByteBuf out = ctx.alloc().buffer(BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES)
                        .writeZero(BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES);
                ctx.write(new DatagramPacket(out, server), ctx.voidPromise());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    // ------------------------------------------------------------------ UDP relay chain, Netty

    /**
     * Ping-pong through {@code hops - 1} plain UDP relays: {@code hops + 1} Netty channels in a
     * chain, each on a single-thread runtime of its own like the overlay nodes, each relay copying
     * every datagram to the next channel along. It has the overlay chain's sockets, threads and
     * wake-ups without any overlay protocol, so the overlay's own cost per hop is the difference.
     */
    static LatencySamples relayChain(int hops, int warmup, int count, BenchmarkSettings settings) {
        return relayChain(hops, warmup, count, Layout.THREAD_PER_NODE, settings);
    }

    /** The relay chain with its channels placed on threads as {@code layout} says. */
    static LatencySamples relayChain(int hops, int warmup, int count, Layout layout, BenchmarkSettings settings) {
        List<NodeRuntime> runtimes = new ArrayList<>();
        List<NodeRuntime> distinct = new ArrayList<>();
        List<Channel> channels = new ArrayList<>();
        try {
            int loops = layout.loops(hops + 1);
            for (int i = 0; i < loops; i++) {
                distinct.add(settings.runtime());
            }
            for (int i = 0; i <= hops; i++) {
                runtimes.add(distinct.get(i % loops));
            }
            Relay[] relays = new Relay[hops + 1];
            channels.add(bind(runtimes.get(hops), new NettyEcho()));
            for (int i = hops - 1; i >= 1; i--) {
                relays[i] = new Relay();
                channels.add(0, bind(runtimes.get(i), relays[i]));
            }
            PingPong pingPong = new PingPong(warmup, count);
            InetSocketAddress first = (InetSocketAddress) channels.get(0).localAddress();
            Channel client = bind(runtimes.get(0), new NettyPinger(pingPong, first));
            channels.add(0, client);
            for (int i = 1; i < hops; i++) {
                relays[i].previous = (InetSocketAddress) channels.get(i - 1).localAddress();
                relays[i].next = (InetSocketAddress) channels.get(i + 1).localAddress();
            }
            pingPong.start();
            client.writeAndFlush(new DatagramPacket(
                    client.alloc().buffer(BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES)
                            .writeZero(BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES), first));
            return pingPong.await(hops + "-hop UDP relay round trip");
        } finally {
            for (Channel c : channels) {
                c.close().syncUninterruptibly();
            }
            distinct.forEach(NodeRuntime::close);
        }
    }

    /** Copies each datagram on: from the previous channel to the next, and from the next back. */
    private static final class Relay extends SimpleChannelInboundHandler<DatagramPacket> {
        volatile InetSocketAddress previous;
        volatile InetSocketAddress next;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            ByteBuf in = packet.content();
            ByteBuf out = ctx.alloc().buffer(in.readableBytes()).writeBytes(in, in.readerIndex(), in.readableBytes());
            InetSocketAddress to = packet.sender().equals(previous) ? next : previous;
            ctx.write(new DatagramPacket(out, to), ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    // ------------------------------------------------------------------ direct UDP, blocking java.nio

    /**
     * Ping-pong between two connected blocking {@code java.nio} datagram channels, each served by a
     * plain thread: the floor of what the JVM can do without an event loop, for reference.
     */
    static LatencySamples directBlocking(int warmup, int count) {
        try (java.nio.channels.DatagramChannel server = java.nio.channels.DatagramChannel.open();
                java.nio.channels.DatagramChannel client = java.nio.channels.DatagramChannel.open()) {
            InetAddress lo = InetAddress.getLoopbackAddress();
            for (java.nio.channels.DatagramChannel ch : List.of(server, client)) {
                ch.setOption(StandardSocketOptions.SO_RCVBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES);
                ch.setOption(StandardSocketOptions.SO_SNDBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES);
                ch.bind(new InetSocketAddress(lo, 0));
            }
            server.connect(client.getLocalAddress());
            client.connect(server.getLocalAddress());
            Thread echo = new Thread(() -> {
                ByteBuffer b = ByteBuffer.allocateDirect(2048);
                try {
                    while (true) {
                        b.clear();
                        server.read(b);
                        b.flip();
                        server.write(b);
                    }
                } catch (ClosedChannelException closed) {
                    // the run is over
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "bench-udp-echo");
            echo.setDaemon(true);
            echo.start();
            ByteBuffer out = ByteBuffer.allocateDirect(BenchmarkSettings.ROUND_TRIP_PAYLOAD_BYTES);
            ByteBuffer in = ByteBuffer.allocateDirect(2048);
            long[] samples = new long[count];
            int[] progress = new int[1];
            Thread watchdog = new Thread(() -> {
                int seen = -1;
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        Thread.sleep(5_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    int p;
                    synchronized (progress) {
                        p = progress[0];
                    }
                    if (p == seen) {
                        try {
                            client.close(); // unblocks the read: a ping was lost
                        } catch (IOException ignored) {
                            // closing is all we can do
                        }
                        return;
                    }
                    seen = p;
                }
            }, "bench-udp-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
            for (int i = 0; i < warmup + count; i++) {
                if ((i & 1023) == 0) {
                    synchronized (progress) {
                        progress[0] = i;
                    }
                }
                out.clear();
                in.clear();
                long t0 = System.nanoTime();
                client.write(out);
                client.read(in);
                long rtt = System.nanoTime() - t0;
                if (i >= warmup) {
                    samples[i - warmup] = rtt;
                }
            }
            watchdog.interrupt();
            server.close();
            echo.join(2_000);
            return new LatencySamples(samples);
        } catch (ClosedChannelException e) {
            throw new IllegalStateException("blocking UDP round trip: no reply for 5 s (a ping was lost)", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
