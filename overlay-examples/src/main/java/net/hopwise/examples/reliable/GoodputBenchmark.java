package net.hopwise.examples.reliable;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.examples.bench.KernelUdpCounters;
import net.hopwise.examples.bench.ThreadCpu;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.session.SessionConfig;
import net.hopwise.overlay.session.SessionStatistics;

/**
 * Goodput of 1000-byte messages between two nodes on loopback, in one run: raw UDP between two
 * sockets (the ceiling), best-effort overlay datagrams offered open loop and paced by the receiver,
 * and a reliable session (hop-by-hop link plus end-to-end session). The sending thread offers as
 * fast as each path accepts, and when back-pressured waits as each path lets an application wait:
 * best effort has no signal, so its sender retries after 20 µs; the reliable session's sender sleeps
 * until the session's writability listener wakes it. The rate is what arrives in the measured window
 * after a warm-up, and the reliable row also checks that nothing was lost or reordered.
 *
 * <p>Best effort has no flow control of its own: offered open loop on two cores, the sending thread
 * takes CPU from the receiving node for datagrams the receiver's socket then drops, which
 * understates what the path can carry. The paced row gives best effort the feedback the reliable
 * session gets from its window: at most {@link #PACED_WINDOW} messages beyond what arrived. The
 * reliable row is compared with the better of the two.
 *
 * <p>On two cores shared by three busy threads the rates drift by tens of percent over seconds, and
 * the JIT takes several seconds to settle. So every overlay path first runs unmeasured for
 * {@code --jit-warmup} seconds, and then the three overlay rows are measured in {@code --rounds}
 * short rounds (7 of 2 s by default), one after another and reliable first in every other round, each
 * round compared within itself; the median round is the result.
 *
 * <p>It runs in a JVM of its own ({@code exec:exec}), not inside Maven's ({@code exec:java}), whose
 * threads and heap share the two cores and made every row slower and noisier.
 *
 * <pre>
 * ./mvnw -q -pl overlay-examples -am test-compile exec:exec -Dexec.executable=java \
 *   -Dexec.args="-cp %classpath net.hopwise.examples.reliable.GoodputBenchmark --docs docs/benchmarks.md"
 * </pre>
 *
 * About 500 lines, over the house's 400: the three paths, their rounds, the CPU and kernel counters
 * and the table share one measured window, which is what makes the rows comparable.
 */
public final class GoodputBenchmark {
    private static final int MESSAGE = 1000;
    /**
     * Messages the paced best-effort sender keeps beyond what arrived: the reliable session's send
     * buffer, so that both paths may have as much outstanding.
     */
    private static final int PACED_WINDOW = SessionConfig.DEFAULT_SEND_BUFFER;
    /** A paced sender that sees nothing arrive for this long writes off what is outstanding as lost. */
    private static final long STALL_NANOS = 20_000_000;
    /** How long a back-pressured best-effort sender waits before it offers again (it has no signal to wait for). */
    private static final long BACK_OFF_NANOS = 20_000;
    /**
     * Longest wait of a back-pressured reliable sender, which sleeps until the session's
     * {@link ReliableSession#onWritable} listener wakes it, as the session's API asks of applications.
     */
    private static final long WRITABLE_WAIT_NANOS = 1_000_000;
    /** The reliable session's goodput is to be at least this share of best effort's, in the median round. */
    private static final double TARGET = 0.85;

    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private GoodputBenchmark() {}

    /**
     * {@code received} counts arrivals within the measured window of {@code seconds}; {@code lost}
     * never arrived, over the whole phase.
     */
    record Row(String path, long offered, long received, long lost, double seconds, String order, String cpu,
            long processCpuNanos, String extra, int round, double baseline) {
        Row(String path, Window w, long lost, String order, String extra) {
            this(path, w.offered, w.received, lost, w.seconds, order, w.cpu, w.processCpuNanos, extra, 0, 0);
        }

        /** This row as measured in {@code round}, against a best effort of {@code baseline} messages/s. */
        Row inRound(int round, double baseline) {
            return new Row(path, offered, received, lost, seconds, order, cpu, processCpuNanos, extra, round, baseline);
        }

        /** Against the better best-effort row of its round. */
        double ratio() {
            return baseline == 0 ? 0 : messagesPerSecond() / baseline;
        }

        /** CPU time of the whole process (every thread) per message received in the window. */
        double cpuMicrosPerMessage() {
            return received == 0 ? 0 : processCpuNanos / 1e3 / received;
        }

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

    /** One offer of message number {@code index}. */
    @FunctionalInterface
    interface Offer {
        SendResult offer(long index);

        /** Waits after a refused offer. */
        default void backOff() {
            LockSupport.parkNanos(BACK_OFF_NANOS);
        }
    }

    /** What the measured window of one phase saw. */
    record Window(long offered, long received, double seconds, String cpu, long receiveBufferErrors,
            long[] linkPackets, long processCpuNanos) {}

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(BenchmarkSection.argument(args, "--seconds", "2"));
        double warmup = Double.parseDouble(BenchmarkSection.argument(args, "--warmup", "1"));
        double jitWarmup = Double.parseDouble(BenchmarkSection.argument(args, "--jit-warmup", "5"));
        int rounds = Integer.parseInt(BenchmarkSection.argument(args, "--rounds", "7"));
        if (rounds < 1 || seconds <= 0 || warmup < 0 || jitWarmup < 0) {
            throw new IllegalArgumentException("--rounds must be at least 1, --seconds positive, warm-ups not negative");
        }
        String docs = BenchmarkSection.argument(args, "--docs", null);
        // 2: one loop per node, as two processes would run; 1: both nodes on one loop, which makes the
        // rate a plain measure of the nodes' CPU cost per message.
        int threads = Integer.parseInt(BenchmarkSection.argument(args, "--threads", "2"));
        List<Row> rows = new ArrayList<>();
        rows.add(rawUdp(warmup, seconds));
        NodeRuntime runtime = NodeRuntime.create(threads);
        OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
        OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build(), runtime);
        try {
            a.addNeighbour(new NeighbourConfig("b", b.localAddress()));
            b.addNeighbour(new NeighbourConfig("a", a.localAddress()));
            while (!a.reachableNodes(a.config().defaultMetric()).contains("b")
                    || !b.reachableNodes(b.config().defaultMetric()).contains("a")) {
                LockSupport.parkNanos(10_000_000);
            }
            Map<Long, String> labels = new HashMap<>();
            long loopA = a.inspect(e -> Thread.currentThread().getId());
            long loopB = b.inspect(e -> Thread.currentThread().getId());
            labels.put(loopA, loopA == loopB ? "loop a+b" : "loop a");
            labels.put(loopB, loopA == loopB ? "loop a+b" : "loop b");
            labels.put(Thread.currentThread().getId(), "sender");
            // Each overlay path once, unmeasured, before any measured row: the JIT then compiles the
            // code they share (socket writes, buffers) seeing both, so neither row runs on code
            // specialised for it alone and the order of the rows does not favour the first.
            System.err.printf(Locale.ROOT, "warming the JIT up: each overlay path for %s s%n", fmt(jitWarmup));
            bestEffort(a, b, 6, true, 0, jitWarmup, labels);
            reliable(a, b, 5, 0, jitWarmup, labels);
            int port = 10;
            for (int round = 1; round <= rounds; round++) {
                System.err.printf(Locale.ROOT, "round %d of %d%n", round, rounds);
                // Odd rounds run best effort first, even rounds reliable first, so that neither
                // path always inherits the state (caches, heap, kernel queues) the other leaves.
                Row open;
                Row paced;
                Row rel;
                if (round % 2 == 1) {
                    open = bestEffort(a, b, port++, false, warmup, seconds, labels);
                    paced = bestEffort(a, b, port++, true, warmup, seconds, labels);
                    rel = reliable(a, b, port++, warmup, seconds, labels);
                } else {
                    rel = reliable(a, b, port++, warmup, seconds, labels);
                    paced = bestEffort(a, b, port++, true, warmup, seconds, labels);
                    open = bestEffort(a, b, port++, false, warmup, seconds, labels);
                }
                double baseline = Math.max(open.messagesPerSecond(), paced.messagesPerSecond());
                for (Row r : List.of(open, paced, rel)) {
                    rows.add(r.inRound(round, baseline));
                }
            }
        } finally {
            a.stop();
            b.stop();
            runtime.close();
        }
        // Raw UDP is compared with the median round's best effort.
        List<Row> reliableRows = rows.stream().filter(r -> r.path.startsWith("reliable")).sorted(
                java.util.Comparator.comparingDouble(Row::ratio)).toList();
        Row median = reliableRows.get((reliableRows.size() - 1) / 2);
        rows.set(0, rows.get(0).inRound(0, median.baseline));
        StringBuilder t = new StringBuilder();
        t.append("| round | path | offered | received in window | msgs/s | Mbit/s | loss | in order | vs best effort"
                + " | CPU µs/msg | busy threads | notes |\n");
        t.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            t.append(String.format(Locale.ROOT,
                    "| %s | %s | %d | %d | %.0f | %.1f | %.2f%% | %s | %.0f%% | %.2f | %s | %s |%n",
                    r.round == 0 ? "–" : Integer.toString(r.round), r.path, r.offered, r.received,
                    r.messagesPerSecond(), r.megabits(), r.lossPercent(), r.order, 100 * r.ratio(),
                    r.cpuMicrosPerMessage(), r.cpu, r.extra));
        }
        StringBuilder summary = new StringBuilder();
        summary.append(String.format(Locale.ROOT, "Reliable against the better best-effort row of its round: %s;"
                        + " median **%.0f%%** (round %d: %.0f against %.0f messages/s); %d of %d rounds at %.0f%% or"
                        + " more. All reliable rows without loss and in order: %s.%n",
                String.join(", ", rows.stream().filter(r -> r.path.startsWith("reliable"))
                        .map(r -> String.format(Locale.ROOT, "%.0f%%", 100 * r.ratio())).toList()),
                100 * median.ratio(), median.round, median.messagesPerSecond(), median.baseline,
                reliableRows.stream().filter(r -> r.ratio() >= TARGET).count(), reliableRows.size(), 100 * TARGET,
                reliableRows.stream().allMatch(r -> r.lost == 0 && r.order.equals("yes")) ? "yes" : "NO"));
        System.out.println(t);
        System.out.println(summary);
        if (docs != null) {
            String body = "### Reliable goodput on loopback beside best effort and raw UDP\n\n"
                    + BenchmarkSection.provenance("./mvnw -q -pl overlay-examples -am test-compile exec:exec"
                            + " -Dexec.executable=java -Dexec.args=\"-cp %classpath"
                            + " net.hopwise.examples.reliable.GoodputBenchmark"
                            + (seconds == 2 ? "" : " --seconds " + fmt(seconds))
                            + (threads == 2 ? "" : " --threads " + threads)
                            + (rounds == 7 ? "" : " --rounds " + rounds)
                            + " --docs docs/benchmarks.md\"")
                    + "\nTwo nodes in one JVM on one shared " + threads + "-thread event-loop group ("
                    + (threads == 1 ? "both on one loop" : "one loop each") + "), one link, "
                    + MESSAGE + "-byte messages offered by one thread as fast as each path takes them (" + fmt(warmup)
                    + " s warm-up, then " + fmt(seconds) + " s measured); rates count what arrived in the measured"
                    + " window, loss is over the whole phase after draining. Raw UDP is two plain sockets (no"
                    + " overlay). Best effort open loop offers until the node back-pressures; paced, it keeps at"
                    + " most " + PACED_WINDOW + " messages beyond what arrived (the reliable session's send buffer),"
                    + " so that its sender does not take CPU from the receiver for datagrams the receiver's socket"
                    + " drops. A back-pressured best-effort sender retries after 20 µs (it has no signal to wait"
                    + " for); the reliable sender sleeps until the session's onWritable listener wakes it (half the"
                    + " session's buffer free), as the session's API asks of applications."
                    + " \"vs best effort\" is against the better best-effort row. CPU µs/msg: CPU time of the"
                    + " whole process (all threads, kernel time included) in the measured window per message"
                    + " received. Busy threads: CPU per thread in the window (one core = 100%). Target: reliable"
                    + " at least " + Math.round(TARGET * 100) + "% of best effort, with no loss and in order. Before the measured rows each"
                    + " overlay path runs unmeasured for " + fmt(jitWarmup) + " s, so that the JIT has seen and"
                    + " settled both before either is measured. The three overlay rows then run in " + rounds
                    + " short rounds, one after another, best effort first in odd rounds and reliable first in even"
                    + " ones; each round's reliable row is compared with that round's better best-effort row (rates"
                    + " on two shared cores drift by tens of percent over seconds, so rows far apart in time do not"
                    + " compare), and the median round is the result. Raw UDP is compared with the median round's"
                    + " best effort.\n\n"
                    + summary + "\n" + t;
            BenchmarkSection.write(BenchmarkSection.topOfBuild().resolve(docs), "reliable-goodput", body);
        }
    }

    private static String fmt(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    static Row rawUdp(double warmup, double seconds) throws IOException, InterruptedException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (DatagramChannel rx = DatagramChannel.open(); DatagramChannel tx = DatagramChannel.open()) {
            rx.setOption(StandardSocketOptions.SO_RCVBUF, NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES);
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
                            received.lazySet(received.get() + 1);
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "raw-udp-reader");
            reader.start();
            Map<Long, String> labels = Map.of(reader.getId(), "reader", Thread.currentThread().getId(), "sender");
            ByteBuffer out = ByteBuffer.allocateDirect(MESSAGE);
            Window w = measure(i -> {
                out.clear();
                out.putLong(0, i);
                try {
                    tx.write(out);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return SendResult.ACCEPTED;
            }, received, false, warmup, seconds, labels, null, null);
            LockSupport.parkNanos(200_000_000);
            done.set(true);
            reader.join();
            return new Row("raw UDP (two sockets)", w, w.offered - received.get(), "n/a",
                    "receive buffer overflows " + w.receiveBufferErrors);
        }
    }

    static Row bestEffort(OverlayNode a, OverlayNode b, int port, boolean paced, double warmup, double seconds,
            Map<Long, String> labels) {
        AtomicLong received = new AtomicLong();
        AtomicLong lastIndex = new AtomicLong(-1);
        AtomicLong reordered = new AtomicLong();
        // Runs on b's event loop only: one writer.
        OverlayPort in = b.openPort(port, m -> {
            long i = m.payload().getLong(m.payload().readerIndex());
            if (i < lastIndex.get()) {
                reordered.incrementAndGet();
            }
            lastIndex.lazySet(Math.max(lastIndex.get(), i));
            received.lazySet(received.get() + 1);
        });
        OverlayPort out = a.openPort(port, m -> {});
        byte[] message = new byte[MESSAGE];
        Window w = measure(i -> {
            ByteBuffer.wrap(message).putLong(0, i);
            return out.send("b", port, message);
        }, received, paced, warmup, seconds, labels, a, b);
        long drainEnd = System.nanoTime() + 2_000_000_000L;
        long seen = -1;
        while (received.get() != seen && System.nanoTime() < drainEnd) {
            seen = received.get();
            LockSupport.parkNanos(200_000_000);
        }
        in.close();
        out.close();
        return new Row(paced ? "best effort, paced by the receiver" : "best effort, open loop", w,
                w.offered - received.get(), reordered.get() == 0 ? "yes" : reordered.get() + " reordered",
                "receive buffer overflows " + w.receiveBufferErrors + "; " + datagrams(w));
    }

    static Row reliable(OverlayNode a, OverlayNode b, int port, double warmup, double seconds,
            Map<Long, String> labels) {
        AtomicLong received = new AtomicLong();
        AtomicLong expected = new AtomicLong();
        AtomicBoolean inOrder = new AtomicBoolean(true);
        ReliableSession in = b.openSession(port, "a", port, m -> {
            ByteBuf p = m.payload();
            long i = p.getLong(p.readerIndex());
            // The number is written at both ends of the message, so that a message whose bytes were
            // mixed with another's fails the check as well as one out of place.
            if (i != expected.get() || p.readableBytes() != MESSAGE || p.getLong(p.readerIndex() + MESSAGE - 8) != i) {
                inOrder.set(false);
            }
            expected.lazySet(i + 1);
            received.lazySet(received.get() + 1);
        });
        ReliableSession out = a.openSession(port, "b", port, m -> {});
        // The link carries every reliable phase: its counters are told as differences.
        ReliableLinkStatistics s0 = a.inspect(e -> e.neighbours().get(0).reliableStatistics());
        byte[] message = new byte[MESSAGE];
        Thread sender = Thread.currentThread();
        out.onWritable(() -> LockSupport.unpark(sender));
        Window w = measure(new Offer() {
            @Override
            public SendResult offer(long i) {
                ByteBuffer.wrap(message).putLong(0, i).putLong(MESSAGE - 8, i);
                return out.send(message);
            }

            @Override
            public void backOff() {
                // Woken by onWritable once half the session's buffer is free (a wake-up that came
                // before this call is kept by LockSupport's permit).
                LockSupport.parkNanos(WRITABLE_WAIT_NANOS);
            }
        }, received, false, warmup, seconds, labels, a, b);
        long drain = System.nanoTime() + 10_000_000_000L;
        while (received.get() < w.offered && System.nanoTime() < drain) {
            LockSupport.parkNanos(10_000_000);
        }
        ReliableLinkStatistics s = a.inspect(e -> e.neighbours().get(0).reliableStatistics());
        SessionStatistics ss = out.statistics();
        String extra = "all " + w.offered + " delivered after draining: " + (received.get() == w.offered)
                + "; link resends " + (s.retransmissions() - s0.retransmissions()) + ", timeouts "
                + (s.timeouts() - s0.timeouts()) + " (undone as spurious "
                + (s.spuriousTimeouts() - s0.spuriousTimeouts()) + "); session resends "
                + ss.retransmissions() + ", congestion marks heeded " + ss.congestionReactions() + "; "
                + datagrams(w);
        in.close();
        out.close();
        return new Row("reliable session (hop-by-hop link + session)", w, w.offered - received.get(),
                inOrder.get() ? "yes" : "NO", extra);
    }

    private static String datagrams(Window w) {
        long forward = w.linkPackets[0];
        long back = w.linkPackets[1];
        long runs = w.linkPackets[2];
        return String.format(Locale.ROOT, "datagrams in the window a→b %d, b→a %d (%.3f per a→b); a's segmented"
                        + " sends %d, %.1f datagrams each", forward, back, forward == 0 ? 0.0 : (double) back / forward,
                runs, runs == 0 ? 0.0 : (double) w.linkPackets[3] / runs);
    }

    /**
     * Offers messages from this thread for {@code warmup + seconds}, backing off briefly whenever the
     * path refuses one, and counts what {@code received} saw in the last {@code seconds}. When
     * {@code paced}, offers only while fewer than {@link #PACED_WINDOW} messages are outstanding.
     */
    static Window measure(Offer offer, AtomicLong received, boolean paced, double warmup, double seconds,
            Map<Long, String> labels, OverlayNode a, OverlayNode b) {
        long start = System.nanoTime();
        long windowStart = start + (long) (warmup * 1e9);
        long end = windowStart + (long) (seconds * 1e9);
        long offered = 0;
        long writtenOff = 0;
        long lastSeen = -1;
        long lastProgress = start;
        boolean inWindow = false;
        long received0 = 0;
        long t0 = 0;
        ThreadCpu cpu0 = null;
        long process0 = 0;
        KernelUdpCounters k0 = null;
        long[] link0 = null;
        while (true) {
            long now = System.nanoTime();
            if (now >= end) {
                break;
            }
            if (!inWindow && now >= windowStart) {
                inWindow = true;
                received0 = received.get();
                t0 = now;
                cpu0 = ThreadCpu.snapshot();
                k0 = KernelUdpCounters.read();
                link0 = linkPackets(a, b);
                process0 = PROCESS.getProcessCpuTime();
            }
            if (paced) {
                long got = received.get();
                if (got != lastSeen) {
                    lastSeen = got;
                    lastProgress = now;
                }
                if (offered - got - writtenOff >= PACED_WINDOW) {
                    if (now - lastProgress > STALL_NANOS) {
                        writtenOff = offered - got;
                    } else {
                        LockSupport.parkNanos(BACK_OFF_NANOS);
                    }
                    continue;
                }
            }
            if (offer.offer(offered) == SendResult.ACCEPTED) {
                offered++;
            } else {
                offer.backOff();
            }
        }
        long received1 = received.get();
        long t1 = System.nanoTime();
        ThreadCpu cpu1 = ThreadCpu.snapshot();
        KernelUdpCounters k1 = KernelUdpCounters.read();
        long[] link1 = linkPackets(a, b);
        long process1 = PROCESS.getProcessCpuTime();
        return new Window(offered, received1 - received0, (t1 - t0) / 1e9, cpu1.busiestSince(cpu0, labels),
                k1.since(k0, "RcvbufErrors"), new long[] {link1[0] - link0[0], link1[1] - link0[1],
                        link1[2] - link0[2], link1[3] - link0[3]},
                process1 - process0);
    }

    /**
     * Datagrams a sent to b and b sent to a so far, then a's segmented (UDP GSO) sends and the
     * datagrams they carried (zeros without nodes).
     */
    private static long[] linkPackets(OverlayNode a, OverlayNode b) {
        if (a == null) {
            return new long[4];
        }
        Neighbour ab = a.neighbours().get(0);
        Neighbour ba = b.neighbours().get(0);
        return new long[] {ab.packetsSent(), ba.packetsSent(), counter(a, "hopwise.node.udp.segmented.sends"),
                counter(a, "hopwise.node.udp.segmented.datagrams")};
    }

    private static long counter(OverlayNode n, String name) {
        io.micrometer.core.instrument.FunctionCounter c = n.meterRegistry().find(name).functionCounter();
        return c == null ? 0 : (long) c.count();
    }
}
