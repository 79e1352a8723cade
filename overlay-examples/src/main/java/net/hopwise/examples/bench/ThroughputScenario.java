package net.hopwise.examples.bench;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.node.NodeCounters;
import net.hopwise.overlay.wire.DropReason;

/**
 * Best-effort throughput of 1000-byte messages: over one overlay link (node a to node b, each on a
 * single-thread runtime of its own, an application thread calling {@code send} in a loop and
 * yielding when back-pressured) against a raw UDP blast (a thread writing 1000-byte datagrams on a
 * connected blocking {@code java.nio} channel, a thread reading them on another). Both use the
 * node's socket buffer size, and run for the same warm-up and measured window.
 *
 * <p>Rates are counted inside the measured window; loss is over the whole run after the receiver
 * has drained what was in flight.
 */
final class ThroughputScenario {
    static final int PORT = 9;
    private static final int PAYLOAD = BenchmarkSettings.THROUGHPUT_PAYLOAD_BYTES;

    /** What one run measured. */
    record Result(double sentPerSecond, double receivedPerSecond, long sent, long received, long backPressured,
            String detail) {
        double lossPercent() {
            return sent == 0 ? 0 : 100.0 * Math.max(0, sent - received) / sent;
        }

        double receivedMbitPerSecond() {
            return receivedPerSecond * PAYLOAD * 8 / 1e6;
        }
    }

    private ThroughputScenario() {}

    // ------------------------------------------------------------------ overlay

    static Result overlay(Duration warmup, Duration duration, BenchmarkSettings settings) {
        try (LoopbackOverlay overlay = LoopbackOverlay.ownRuntimes(List.of("tput-a", "tput-b"), settings::runtime)) {
            overlay.link("tput-a", "tput-b");
            overlay.awaitConvergence(Duration.ofSeconds(30));
            OverlayNode a = overlay.node("tput-a");
            OverlayNode b = overlay.node("tput-b");
            AtomicLong received = new AtomicLong();
            // Runs on b's event loop only: one writer, so a lazy store publishes the count.
            b.openPort(PORT, m -> received.lazySet(received.get() + 1));
            OverlayPort port = a.openPort(PORT, m -> { });
            NodeId destination = b.id();
            byte[] payload = new byte[PAYLOAD];
            AtomicLong accepted = new AtomicLong();
            AtomicLong backPressured = new AtomicLong();
            Sender sender = new Sender("bench-overlay-sender", () -> {
                SendResult r = port.send(destination, PORT, payload, LoopbackOverlay.METRIC);
                if (r == SendResult.ACCEPTED) {
                    accepted.lazySet(accepted.get() + 1);
                    return true;
                }
                if (r == SendResult.BACK_PRESSURED) {
                    backPressured.lazySet(backPressured.get() + 1);
                    Thread.yield();
                    return true;
                }
                throw new IllegalStateException("send refused: " + r);
            });
            Map<Long, String> labels = Map.of(
                    a.inspect(e -> Thread.currentThread().getId()), "node a loop",
                    b.inspect(e -> Thread.currentThread().getId()), "node b loop");
            Window w = Window.measure(sender, accepted, received, warmup, duration, labels);
            NodeCounters ca = a.counters();
            NodeCounters cb = b.counters();
            double segmentedSends = counter(a, "hopwise.node.udp.segmented.sends");
            double segmentedDatagrams = counter(a, "hopwise.node.udp.segmented.datagrams");
            StringBuilder drops = new StringBuilder();
            for (OverlayNode n : List.of(a, b)) {
                for (DropReason reason : DropReason.values()) {
                    long d = n.counters().drops(reason);
                    if (d > 0) {
                        drops.append(' ').append(n.name()).append(':').append(reason).append('=').append(d);
                    }
                }
            }
            String detail = String.format(Locale.ROOT,
                    "overlay: %d accepted, %d back-pressured sends, a sent %d packets (%.0f of them in %.0f"
                            + " segmented sends, %.1f per send), b received %d packets, b delivered %d messages;"
                            + " node drops:%s; kernel: %s; busy threads: %s",
                    accepted.get(), backPressured.get(), ca.packetsSent(), segmentedDatagrams, segmentedSends,
                    segmentedSends == 0 ? 0 : segmentedDatagrams / segmentedSends, cb.packetsReceived(),
                    cb.messagesDelivered(), drops.length() == 0 ? " none" : drops, w.kernel, w.busyThreads);
            return new Result(w.sentPerSecond, w.receivedPerSecond, accepted.get(), received.get(),
                    backPressured.get(), detail);
        }
    }

    private static double counter(OverlayNode node, String name) {
        var c = node.meterRegistry().find(name).tag("node", node.name()).functionCounter();
        return c == null ? 0 : c.count();
    }

    // ------------------------------------------------------------------ raw UDP

    static Result rawUdp(Duration warmup, Duration duration) {
        try (DatagramChannel tx = DatagramChannel.open(); DatagramChannel rx = DatagramChannel.open()) {
            InetAddress lo = InetAddress.getLoopbackAddress();
            for (DatagramChannel ch : List.of(tx, rx)) {
                ch.setOption(StandardSocketOptions.SO_RCVBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES);
                ch.setOption(StandardSocketOptions.SO_SNDBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES);
                ch.bind(new InetSocketAddress(lo, 0));
            }
            tx.connect(rx.getLocalAddress());
            rx.connect(tx.getLocalAddress());
            int effectiveRcvBuf = rx.getOption(StandardSocketOptions.SO_RCVBUF);
            AtomicLong received = new AtomicLong();
            Thread receiver = new Thread(() -> {
                ByteBuffer in = ByteBuffer.allocateDirect(2048);
                try {
                    while (true) {
                        in.clear();
                        rx.read(in);
                        received.lazySet(received.get() + 1);
                    }
                } catch (ClosedChannelException closed) {
                    // the run is over
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "bench-raw-receiver");
            receiver.setDaemon(true);
            receiver.start();
            ByteBuffer out = ByteBuffer.allocateDirect(PAYLOAD);
            AtomicLong sent = new AtomicLong();
            Sender sender = new Sender("bench-raw-sender", () -> {
                out.clear();
                try {
                    tx.write(out);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                sent.lazySet(sent.get() + 1);
                return true;
            });
            Window w = Window.measure(sender, sent, received, warmup, duration, Map.of());
            rx.close();
            receiver.join(2_000);
            String detail = String.format(Locale.ROOT,
                    "raw: %d sent, %d received, receive buffer %d bytes effective; kernel: %s; busy threads: %s",
                    sent.get(), received.get(), effectiveRcvBuf, w.kernel, w.busyThreads);
            return new Result(w.sentPerSecond, w.receivedPerSecond, sent.get(), received.get(), 0, detail);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    // ------------------------------------------------------------------ raw UDP with GSO and GRO

    /**
     * The most the kernel does for one sender and one receiver with the offloads the overlay uses: a
     * Netty epoll channel writes runs of {@link #SEGMENTS} datagrams of 1000 bytes as UDP
     * GSO sends (one prepared buffer, sent again and again without copying), driven from its own
     * event loop; another reads them with UDP GRO and counts the datagrams Netty splits out. Both on
     * single-thread runtimes of their own with this run's loop settings. Informational: no
     * application copies a message or waits for a queue here.
     */
    static Result rawUdpOffload(Duration warmup, Duration duration, BenchmarkSettings settings) {
        NodeRuntime rxRuntime = settings.runtime();
        NodeRuntime txRuntime = settings.runtime();
        io.netty.channel.Channel rx = null;
        io.netty.channel.Channel tx = null;
        io.netty.buffer.ByteBuf run = null;
        try {
            AtomicLong received = new AtomicLong();
            rx = new io.netty.bootstrap.Bootstrap().group(rxRuntime.group())
                    .channel(io.netty.channel.epoll.EpollDatagramChannel.class)
                    .option(io.netty.channel.ChannelOption.SO_RCVBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES)
                    .option(io.netty.channel.epoll.EpollChannelOption.UDP_GRO, true)
                    .option(io.netty.channel.ChannelOption.RECVBUF_ALLOCATOR,
                            new io.netty.channel.FixedRecvByteBufAllocator(65536))
                    .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                            received.lazySet(received.get() + 1);
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
            tx = new io.netty.bootstrap.Bootstrap().group(txRuntime.group())
                    .channel(io.netty.channel.epoll.EpollDatagramChannel.class)
                    .option(io.netty.channel.ChannelOption.SO_SNDBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES)
                    .handler(new io.netty.channel.ChannelInboundHandlerAdapter())
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
            run = io.netty.buffer.Unpooled.directBuffer(SEGMENTS * PAYLOAD).writeZero(SEGMENTS * PAYLOAD);
            AtomicLong sent = new AtomicLong();
            OffloadSender sender = new OffloadSender(tx, run, (InetSocketAddress) rx.localAddress(), sent);
            Window w = Window.measure(sender.asSender(), sent, received, warmup, duration,
                    Map.of(rxRuntime.group().submit(() -> Thread.currentThread().getId()).syncUninterruptibly()
                            .getNow(), "receiver loop"));
            String detail = String.format(Locale.ROOT,
                    "raw with offload: %d sent in runs of %d, %d received; kernel: %s; busy threads: %s",
                    sent.get(), SEGMENTS, received.get(), w.kernel, w.busyThreads);
            return new Result(w.sentPerSecond, w.receivedPerSecond, sent.get(), received.get(), 0, detail);
        } finally {
            if (tx != null) {
                tx.close().syncUninterruptibly();
            }
            if (rx != null) {
                rx.close().syncUninterruptibly();
            }
            if (run != null) {
                run.release();
            }
            txRuntime.close();
            rxRuntime.close();
        }
    }

    /** Datagrams per GSO send of the raw offload baseline: as many as the overlay puts in one. */
    static final int SEGMENTS = 61;

    /** Writes GSO runs from the sending channel's own event loop, a batch per loop turn. */
    private static final class OffloadSender {
        private final io.netty.channel.Channel channel;
        private final io.netty.buffer.ByteBuf run;
        private final InetSocketAddress to;
        private final AtomicLong sent;
        private volatile boolean stop;
        private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);

        OffloadSender(io.netty.channel.Channel channel, io.netty.buffer.ByteBuf run, InetSocketAddress to,
                AtomicLong sent) {
            this.channel = channel;
            this.run = run;
            this.to = to;
            this.sent = sent;
        }

        private void turn() {
            if (stop) {
                stopped.countDown();
                return;
            }
            for (int i = 0; i < 16 && channel.isWritable(); i++) {
                channel.write(new io.netty.channel.unix.SegmentedDatagramPacket(run.retainedDuplicate(), PAYLOAD, to),
                        channel.voidPromise());
                sent.lazySet(sent.get() + SEGMENTS);
            }
            channel.flush();
            channel.eventLoop().schedule(this::turn, 0, java.util.concurrent.TimeUnit.NANOSECONDS);
        }

        Sender asSender() {
            return new Sender(() -> channel.eventLoop().execute(this::turn), () -> {
                stop = true;
                stopped.await(10, java.util.concurrent.TimeUnit.SECONDS);
            });
        }
    }

    // ------------------------------------------------------------------ plumbing

    /** One step of a sending loop; returns false to stop early. */
    @FunctionalInterface
    private interface SendStep {
        boolean sendOne();
    }

    /** Stops something that sends. */
    @FunctionalInterface
    private interface Stopping {
        void stop() throws InterruptedException;
    }

    /** Something sending until stopped: a thread calling a send step in a loop, or an event-loop task. */
    private static final class Sender {
        private final Runnable start;
        private final Stopping stopping;
        private volatile boolean stop;
        private volatile RuntimeException failure;

        Sender(String name, SendStep step) {
            Thread thread = new Thread(() -> {
                try {
                    while (!stop && step.sendOne()) {
                        // keep sending
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
            }, name);
            thread.setDaemon(true);
            this.start = thread::start;
            this.stopping = () -> {
                stop = true;
                thread.join(10_000);
                if (failure != null) {
                    throw new IllegalStateException(thread.getName() + " failed", failure);
                }
            };
        }

        Sender(Runnable start, Stopping stopping) {
            this.start = start;
            this.stopping = stopping;
        }

        void start() {
            start.run();
        }

        void stopAndJoin() throws InterruptedException {
            stopping.stop();
        }
    }

    /** Runs a sender through warm-up and the measured window, then lets the receiver drain. */
    private static final class Window {
        double sentPerSecond;
        double receivedPerSecond;
        String kernel;
        String busyThreads;

        static Window measure(Sender sender, AtomicLong sent, AtomicLong received, Duration warmup, Duration duration,
                Map<Long, String> threadLabels) {
            Window w = new Window();
            try {
                sender.start();
                sleep(warmup);
                KernelUdpCounters k0 = KernelUdpCounters.read();
                ThreadCpu cpu0 = ThreadCpu.snapshot();
                long s0 = sent.get();
                long r0 = received.get();
                long t0 = System.nanoTime();
                sleep(duration);
                long s1 = sent.get();
                long r1 = received.get();
                long t1 = System.nanoTime();
                ThreadCpu cpu1 = ThreadCpu.snapshot();
                KernelUdpCounters k1 = KernelUdpCounters.read();
                sender.stopAndJoin();
                drain(received);
                double seconds = (t1 - t0) / 1e9;
                w.sentPerSecond = (s1 - s0) / seconds;
                w.receivedPerSecond = (r1 - r0) / seconds;
                w.kernel = k1.available()
                        ? "UDP receive-buffer overflows " + k1.since(k0, "RcvbufErrors")
                                + ", send-buffer errors " + k1.since(k0, "SndbufErrors") + " in the window"
                        : "counters unavailable";
                w.busyThreads = cpu1.busiestSince(cpu0, threadLabels);
                return w;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        /** Waits until the receive count has not moved for 300 ms (at most 10 s). */
        private static void drain(AtomicLong received) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            long last = -1;
            while (System.nanoTime() < deadline) {
                long now = received.get();
                if (now == last) {
                    return;
                }
                last = now;
                LockSupport.parkNanos(300_000_000L);
            }
        }

        private static void sleep(Duration d) throws InterruptedException {
            Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));
        }
    }
}
