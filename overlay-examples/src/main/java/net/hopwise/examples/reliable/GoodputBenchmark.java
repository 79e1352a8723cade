package net.hopwise.examples.reliable;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.node.Neighbour;

/**
 * Goodput of 1000-byte messages between two nodes on loopback, in one run: raw UDP between two
 * sockets (the ceiling), best-effort overlay datagrams, and a reliable session (hop-by-hop link plus
 * end-to-end session). A sender thread offers as fast as each path accepts (it waits briefly when
 * back-pressured); the rate is what arrives, and the reliable row also checks that nothing was
 * lost or reordered.
 *
 * <pre>
 * ./mvnw -q -pl overlay-examples -am compile exec:java \
 *   -Dexec.mainClass=net.hopwise.examples.reliable.GoodputBenchmark \
 *   -Dexec.args="--seconds 5 --docs docs/benchmarks.md"
 * </pre>
 */
public final class GoodputBenchmark {
    private static final int MESSAGE = 1000;

    private GoodputBenchmark() {}

    /** {@code received} counts arrivals within the measured seconds; {@code lost} never arrived. */
    record Row(String path, long offered, long received, long lost, double seconds, String order, String extra) {
        double messagesPerSecond() {
            return received / seconds;
        }

        double megabits() {
            return received * MESSAGE * 8 / seconds / 1e6;
        }

        double lossPercent() {
            return offered == 0 ? 0 : 100.0 * lost / offered;
        }
    }

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(BenchmarkSection.argument(args, "--seconds", "5"));
        String docs = BenchmarkSection.argument(args, "--docs", null);
        List<Row> rows = new ArrayList<>();
        rows.add(rawUdp(seconds));
        NodeRuntime runtime = NodeRuntime.create(2);
        OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
        OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build(), runtime);
        try {
            a.addNeighbour(new NeighbourConfig("b", b.localAddress()));
            b.addNeighbour(new NeighbourConfig("a", a.localAddress()));
            while (!a.reachableNodes(a.config().defaultMetric()).contains("b")
                    || !b.reachableNodes(b.config().defaultMetric()).contains("a")) {
                LockSupport.parkNanos(10_000_000);
            }
            rows.add(bestEffort(a, b, seconds));
            rows.add(reliable(a, b, seconds));
        } finally {
            a.stop();
            b.stop();
            runtime.close();
        }
        Row effort = rows.get(1);
        StringBuilder t = new StringBuilder();
        t.append("| path | offered | received | msgs/s | Mbit/s | loss | in order | vs best effort | notes |\n");
        t.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            t.append(String.format("| %s | %d | %d | %.0f | %.1f | %.2f%% | %s | %.0f%% | %s |%n", r.path, r.offered,
                    r.received, r.messagesPerSecond(), r.megabits(), r.lossPercent(), r.order,
                    100.0 * r.messagesPerSecond() / effort.messagesPerSecond(), r.extra));
        }
        System.out.println(t);
        if (docs != null) {
            String body = "### Reliable goodput on loopback beside best effort and raw UDP\n\n"
                    + BenchmarkSection.provenance("./mvnw -q -pl overlay-examples -am compile exec:java"
                            + " -Dexec.mainClass=net.hopwise.examples.reliable.GoodputBenchmark"
                            + " -Dexec.args=\"--seconds " + (int) seconds + " --docs docs/benchmarks.md\"")
                    + "\nTwo nodes in one JVM on one shared 2-thread event-loop group, one link, " + MESSAGE
                    + "-byte messages offered by one thread as fast as each path takes them for " + seconds
                    + " s each; rates count what arrived. Raw UDP is two plain sockets (no overlay). Target: reliable"
                    + " at least 70% of best effort, with no loss and in order.\n\n" + t;
            BenchmarkSection.write(Path.of(docs), "reliable-goodput", body);
        }
    }

    static Row rawUdp(double seconds) throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (DatagramChannel rx = DatagramChannel.open(); DatagramChannel tx = DatagramChannel.open()) {
            rx.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4 * 1024 * 1024);
            rx.bind(new InetSocketAddress(lo, 0));
            tx.connect(rx.getLocalAddress());
            AtomicLong received = new AtomicLong();
            AtomicBoolean done = new AtomicBoolean();
            rx.configureBlocking(false);
            Thread reader = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocateDirect(2048);
                try {
                    while (!done.get()) {
                        buf.clear();
                        if (rx.receive(buf) != null) {
                            received.incrementAndGet();
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "raw-udp-reader");
            reader.start();
            ByteBuffer out = ByteBuffer.allocateDirect(MESSAGE);
            long offered = 0;
            long end = System.nanoTime() + (long) (seconds * 1e9);
            while (System.nanoTime() < end) {
                out.clear();
                out.putLong(0, offered);
                tx.write(out);
                offered++;
            }
            LockSupport.parkNanos(200_000_000);
            done.set(true);
            reader.join();
            return new Row("raw UDP (two sockets)", offered, received.get(), offered - received.get(), seconds, "n/a", "");
        }
    }

    static Row bestEffort(OverlayNode a, OverlayNode b, double seconds) {
        AtomicLong received = new AtomicLong();
        AtomicLong lastIndex = new AtomicLong(-1);
        AtomicLong reordered = new AtomicLong();
        OverlayPort in = b.openPort(7, m -> {
            long i = m.payload().getLong(m.payload().readerIndex());
            if (i < lastIndex.get()) {
                reordered.incrementAndGet();
            }
            lastIndex.set(Math.max(lastIndex.get(), i));
            received.incrementAndGet();
        });
        OverlayPort out = a.openPort(7, m -> {});
        byte[] message = new byte[MESSAGE];
        long offered = 0;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            ByteBuffer.wrap(message).putLong(0, offered);
            if (out.send("b", 7, message) == SendResult.ACCEPTED) {
                offered++;
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
        LockSupport.parkNanos(500_000_000);
        in.close();
        out.close();
        return new Row("best effort (overlay datagrams)", offered, received.get(), offered - received.get(), seconds,
                reordered.get() == 0 ? "yes" : reordered.get() + " reordered", "");
    }

    static Row reliable(OverlayNode a, OverlayNode b, double seconds) {
        AtomicLong received = new AtomicLong();
        AtomicLong expected = new AtomicLong();
        AtomicBoolean inOrder = new AtomicBoolean(true);
        ReliableSession in = b.openSession(8, "a", 8, m -> {
            long i = m.payload().getLong(m.payload().readerIndex());
            if (i != expected.getAndIncrement()) {
                inOrder.set(false);
            }
            received.incrementAndGet();
        });
        ReliableSession out = a.openSession(8, "b", 8, m -> {});
        byte[] message = new byte[MESSAGE];
        long offered = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long receivedAtEnd = 0;
        while (System.nanoTime() < end) {
            ByteBuffer.wrap(message).putLong(0, offered);
            if (out.send(message) == SendResult.ACCEPTED) {
                offered++;
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
        receivedAtEnd = received.get();
        long drain = System.nanoTime() + 10_000_000_000L;
        while (received.get() < offered && System.nanoTime() < drain) {
            LockSupport.parkNanos(10_000_000);
        }
        Neighbour link = a.neighbours().get(0);
        var s = link.reliableStatistics();
        String extra = "all " + offered + " delivered after draining: " + (received.get() == offered)
                + "; link resends " + s.retransmissions() + ", timeouts " + s.timeouts();
        in.close();
        out.close();
        return new Row("reliable session (hop-by-hop link + session)", offered, receivedAtEnd,
                offered - received.get(), seconds,
                inOrder.get() ? "yes" : "NO", extra);
    }
}
