package net.hopwise.overlay.security;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Not a test: what sealed links cost against plaintext, in one run, row by row in alternating rounds
 * (rates on a shared 2-core machine drift by tens of percent over seconds, so each sealed row is
 * compared with the plaintext row of its own round and the median round is the result):
 * <ul>
 *   <li>best-effort goodput a to b on loopback UDP, 1000-byte messages, the sender keeping at most
 *       4096 messages beyond what arrived (so that it does not take the receiver's CPU for datagrams
 *       the receiver's socket would drop);</li>
 *   <li>reliable goodput over a session (hop-by-hop link and session), the sender woken by the
 *       session's writability listener;</li>
 *   <li>round trip over 3 hops (4 nodes in a chain), one 64-byte message outstanding, its median:
 *       measured twice, each chain on a runtime of its own one after the other (the row's {@code 3-hop
 *       rtt}), and with a plaintext chain and a sealed one on one runtime, their pings alternating
 *       ({@link RoundTripProbe}), which compares them under the same scheduling; the latter is the
 *       ratio of record.</li>
 * </ul>
 * The nodes of a row share one 2-thread runtime. Beside each sealed row it states the crypto ceiling
 * ({@link CeilingProbe}): the highest share of plaintext's goodput any implementation could reach
 * that pays the cipher's seal and open, as measured in a tight loop in the same round, on the CPU
 * plaintext used per message; and, once, OpenSSL's own figure for the cipher when {@code openssl} is
 * on the PATH. With the module's test classpath:
 * {@code java -cp <classpath> net.hopwise.overlay.security.SealedLinkBenchmark [--rounds 3] [--seconds 2]
 * [--warmup 1] [--pings 5000] [--suites AES_GCM,CHACHA_POLY] [--window 4096] [--rtt-only]} ({@code --window}: the
 * best-effort sender's lead in messages, to try another; {@code --rtt-only}: the alternating round
 * trip's rounds alone); docs/benchmarks.md, "Link security",
 * gives the exact command.
 */
public final class SealedLinkBenchmark {
    private static final int PAYLOAD = 1000;
    /** Messages the best-effort sender may be ahead of what arrived ({@code --window}). */
    private static int pacedWindow = 4096;
    private static final int RTT_PAYLOAD = 64;
    private static final RoutingMetric METRIC = RoutingMetric.HOPS;

    /** Unmeasured sending before each goodput row's window. */
    private static double warmupSeconds = 1;

    private SealedLinkBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(arg(args, "--rounds", "3"));
        double seconds = Double.parseDouble(arg(args, "--seconds", "2"));
        int pings = Integer.parseInt(arg(args, "--pings", "5000"));
        warmupSeconds = Double.parseDouble(arg(args, "--warmup", "1"));
        pacedWindow = Integer.parseInt(arg(args, "--window", Integer.toString(pacedWindow)));
        // The alternating round trip alone, the ratio of record, takes a fraction of a full run's minutes.
        boolean rttOnly = Arrays.asList(args).contains("--rtt-only");
        List<CipherSuite> suites = new ArrayList<>();
        for (String s : arg(args, "--suites", "AES_GCM,CHACHA_POLY").split(",")) {
            suites.add(CipherSuite.valueOf(s.trim()));
        }
        List<CipherSuite> configs = new ArrayList<>();
        configs.add(null);
        configs.addAll(suites);
        System.out.printf(Locale.ROOT, "Java %s, %d processors; %d rounds, %.1f s a goodput row after %.1f s warm-up,"
                + " %d pings a round-trip row%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), rounds, seconds, warmupSeconds, pings);
        // Netty 4.2 turns sun.misc.Unsafe off by default from Java 25 on (heap-to-direct copies and
        // buffer access then go through slower paths): a plaintext row without it is not the baseline
        // a Java 17 node gets, so the run says which it had.
        System.out.println("Netty's Unsafe: " + (io.netty.util.internal.PlatformDependent.hasUnsafe() ? "available"
                : "unavailable (" + io.netty.util.internal.PlatformDependent.getUnsafeUnavailabilityCause().getMessage()
                        + "); on Java 25+ run with --sun-misc-unsafe-memory-access=allow to compare like with like"));
        System.err.println("warming the JIT up: every row once, unmeasured");
        if (rttOnly) {
            // Without the goodput rows' seconds of sealing first, the sealed path needs more round trips
            // than the full run's warm-up to be compiled as it is in a full run's rounds.
            for (int w = 0; w < 4; w++) {
                for (CipherSuite c : suites) {
                    RoundTripProbe.paired(c, pings);
                }
            }
            pairedOnly(suites, rounds, pings);
            return;
        }
        for (CipherSuite c : configs) {
            goodput(c, false, seconds);
            goodput(c, true, seconds);
            roundTrip(c, pings / 2);
        }
        for (CipherSuite c : suites) {
            RoundTripProbe.paired(c, pings / 2);
        }
        for (CipherSuite c : suites) {
            System.out.println(CeilingProbe.openssl(c, PAYLOAD));
        }
        Map<String, List<double[]>> results = new HashMap<>();
        Map<String, List<double[]>> ceilings = new HashMap<>();
        for (int r = 1; r <= rounds; r++) {
            double[] plain = null;
            double[] plainCpu = null;
            Map<CipherSuite, RoundTripProbe.Paired> paired = new HashMap<>();
            for (CipherSuite c : suites) {
                RoundTripProbe.Paired p = RoundTripProbe.paired(c, pings);
                paired.put(c, p);
                System.out.printf(Locale.ROOT, "round %d %-11s 3-hop rtt, pings alternating with plaintext's: plaintext %.1f us,"
                        + " sealed %.1f us (%.2fx)%n", r, c.name(), p.plainNanos() / 1e3, p.sealedNanos() / 1e3, p.ratio());
            }
            for (CipherSuite c : configs) {
                double[] be = goodput(c, false, seconds);
                double[] rel = goodput(c, true, seconds);
                double rtt = roundTrip(c, pings);
                double[] row = {be[0], rel[0], rtt};
                if (c == null) {
                    plain = row;
                    plainCpu = new double[] {be[1], rel[1]};
                }
                System.out.printf(Locale.ROOT, "round %d %-11s best effort %7.1f MB/s (%3.0f%%)  reliable %7.1f MB/s"
                        + " (%3.0f%%)  3-hop rtt %6.1f us (%.2fx)  CPU a message (not the sender's): best effort %.2f us, reliable %.2f us%n",
                        r, c == null ? "plaintext" : c.name(), be[0] / 1e6, 100 * be[0] / plain[0], rel[0] / 1e6,
                        100 * rel[0] / plain[1], rtt / 1e3, rtt / plain[2], be[1] / 1e3, rel[1] / 1e3);
                results.computeIfAbsent(c == null ? "plaintext" : c.name(), k -> new ArrayList<>())
                        .add(new double[] {be[0] / plain[0], rel[0] / plain[1], rtt / plain[2],
                            c == null ? 1 : paired.get(c).ratio()});
                if (c != null) {
                    CeilingProbe.Ceiling be1 = CeilingProbe.ceiling(c, PAYLOAD, PAYLOAD * 1e9 / plain[0], plainCpu[0]);
                    CeilingProbe.Ceiling rel1 = CeilingProbe.ceiling(c, PAYLOAD, PAYLOAD * 1e9 / plain[1], plainCpu[1]);
                    System.out.printf(Locale.ROOT, "round %d %-11s crypto ceiling: %s%n", r, c.name(), be1.describe("best effort"));
                    System.out.printf(Locale.ROOT, "round %d %-11s crypto ceiling: %s%n", r, c.name(), rel1.describe("reliable"));
                    ceilings.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(new double[] {be1.twoCores(),
                        rel1.twoCores()});
                }
            }
        }
        for (CipherSuite c : suites) {
            List<double[]> rs = results.get(c.name());
            List<double[]> cs = ceilings.get(c.name());
            System.out.printf(Locale.ROOT, "%-11s median of %d rounds against plaintext: best effort %.0f%% (crypto ceiling"
                    + " %.0f%%), reliable %.0f%% (crypto ceiling %.0f%%), 3-hop rtt %.2fx with pings alternating"
                    + " (%.2fx one chain after the other)%n", c.name(), rs.size(), 100 * median(rs, 0), 100 * median(cs, 0),
                    100 * median(rs, 1), 100 * median(cs, 1), median(rs, 3), median(rs, 2));
        }
    }

    /** The rounds of the alternating round trip and nothing else ({@code --rtt-only}), after the same warm-up. */
    private static void pairedOnly(List<CipherSuite> suites, int rounds, int pings) throws Exception {
        Map<String, List<double[]>> ratios = new HashMap<>();
        for (int r = 1; r <= rounds; r++) {
            for (CipherSuite c : suites) {
                RoundTripProbe.Paired p = RoundTripProbe.paired(c, pings);
                ratios.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(new double[] {p.ratio()});
                System.out.printf(Locale.ROOT, "round %d %-11s 3-hop rtt, pings alternating with plaintext's: plaintext %.1f us,"
                        + " sealed %.1f us (%.2fx)%n", r, c.name(), p.plainNanos() / 1e3, p.sealedNanos() / 1e3, p.ratio());
            }
        }
        for (CipherSuite c : suites) {
            System.out.printf(Locale.ROOT, "%-11s median of %d rounds against plaintext: 3-hop rtt %.2fx with pings alternating%n",
                    c.name(), rounds, median(ratios.get(c.name()), 0));
        }
    }

    private static double median(List<double[]> rows, int column) {
        double[] v = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Nodes named by {@code names} in a chain, sealed with {@code suite}, or plaintext when null. */
    static List<OverlayNode> chain(NodeRuntime runtime, CipherSuite suite, String... names) {
        Map<String, List<byte[]>> trusted = new HashMap<>();
        Map<String, NodeKeys> keys = new HashMap<>();
        for (String n : names) {
            NodeKeys k = NodeKeys.generate();
            keys.put(n, k);
            trusted.put(n, List.of(k.identityPublic()));
        }
        TrustedKeys admission = new TrustedKeys(trusted);
        List<OverlayNode> nodes = new ArrayList<>();
        for (String n : names) {
            NodeConfig.Builder b = NodeConfig.builder(n).loopback(0).defaultMetric(METRIC);
            if (suite != null) {
                b.module(new SecurityModule(SecurityConfig.of(n, keys.get(n), null, admission).withCipherSuite(suite)));
            }
            nodes.add(OverlayNode.start(b.build(), runtime));
        }
        for (int i = 0; i + 1 < nodes.size(); i++) {
            OverlayNode x = nodes.get(i);
            OverlayNode y = nodes.get(i + 1);
            x.addNeighbour(new NeighbourConfig(y.config().name(), loopback(y)));
            y.addNeighbour(new NeighbourConfig(x.config().name(), loopback(x)));
        }
        String last = names[names.length - 1];
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (nodes.get(0).path(last, METRIC).size() != names.length
                || nodes.get(nodes.size() - 1).path(names[0], METRIC).size() != names.length) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no route across the chain");
            }
            LockSupport.parkNanos(5_000_000);
        }
        return nodes;
    }

    private static InetSocketAddress loopback(OverlayNode n) {
        return new InetSocketAddress("127.0.0.1", n.localAddress().getPort());
    }

    /**
     * Bytes a second delivered at b (best effort paced by the receiver, or a reliable session), and the
     * CPU time (user and kernel) per message delivered meanwhile: every thread's but the sending one's,
     * of which only the time in accepted sends counts (the rest is waiting for room).
     */
    static double[] goodput(CipherSuite suite, boolean reliable, double seconds) throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(2)) {
            List<OverlayNode> nodes = chain(runtime, suite, "a", "b");
            OverlayNode a = nodes.get(0);
            OverlayNode b = nodes.get(1);
            try {
                AtomicLong received = new AtomicLong();
                byte[] payload = new byte[PAYLOAD];
                Thread sender = Thread.currentThread();
                // The sending thread's useful work, its accepted sends, timed one call in 16 (timing
                // every call would cost the sender tens of ns a message); its waiting is not work.
                long[] sendNanos = {0, 0};
                Runnable offer;
                if (reliable) {
                    b.openSession(7, "a", 7, m -> received.lazySet(received.get() + m.payload().readableBytes()));
                    ReliableSession out = a.openSession(7, "b", 7, m -> { });
                    out.onWritable(() -> LockSupport.unpark(sender));
                    offer = () -> {
                        long s0 = (++sendNanos[1] & 15) == 0 ? System.nanoTime() : 0;
                        SendResult sent = out.send(payload);
                        if (s0 != 0 && sent == SendResult.ACCEPTED) {
                            sendNanos[0] += 16 * (System.nanoTime() - s0);
                        }
                        if (sent != SendResult.ACCEPTED) {
                            // woken by onWritable once half the session's buffer is free
                            LockSupport.parkNanos(1_000_000);
                        }
                    };
                } else {
                    b.openPort(7, m -> received.lazySet(received.get() + m.payload().readableBytes()));
                    OverlayPort port = a.openPort(7, m -> { });
                    NodeId to = b.id();
                    long[] offered = {0};
                    long[] progress = {0, System.nanoTime()};
                    offer = () -> {
                        long got = received.get();
                        long now = System.nanoTime();
                        if (got != progress[0]) {
                            progress[0] = got;
                            progress[1] = now;
                        }
                        if (offered[0] - got >= (long) pacedWindow * PAYLOAD) {
                            if (now - progress[1] > 5_000_000L) {
                                offered[0] = got; // what a full socket buffer dropped never arrives
                            } else {
                                LockSupport.parkNanos(20_000);
                            }
                            return;
                        }
                        long s0 = (++sendNanos[1] & 15) == 0 ? System.nanoTime() : 0;
                        if (port.send(to, 7, payload, METRIC) == SendResult.ACCEPTED) {
                            if (s0 != 0) {
                                sendNanos[0] += 16 * (System.nanoTime() - s0);
                            }
                            offered[0] += PAYLOAD;
                        } else {
                            LockSupport.parkNanos(20_000);
                        }
                    };
                }
                long warm = System.nanoTime() + (long) (warmupSeconds * 1e9);
                while (System.nanoTime() < warm) {
                    offer.run();
                }
                long r0 = received.get();
                long drops0 = b.counters().drops(net.hopwise.overlay.wire.DropReason.SOCKET_BUFFER);
                var threads0 = CeilingProbe.threadCpu();
                long c0 = CeilingProbe.cpuNanosButThisThread() + sendNanos[0];
                long t0 = System.nanoTime();
                long end = t0 + (long) (seconds * 1e9);
                while (System.nanoTime() < end) {
                    offer.run();
                }
                long t1 = System.nanoTime();
                long c1 = CeilingProbe.cpuNanosButThisThread() + sendNanos[0];
                long bytes = received.get() - r0;
                System.out.printf(Locale.ROOT, "  %s %s: busiest threads a message: %s; the receiver's socket dropped %d%n",
                        suite == null ? "plaintext" : suite.name(), reliable ? "reliable" : "best effort",
                        CeilingProbe.busiestThreads(threads0, CeilingProbe.threadCpu(), bytes / (double) PAYLOAD),
                        b.counters().drops(net.hopwise.overlay.wire.DropReason.SOCKET_BUFFER) - drops0);
                return new double[] {bytes * 1e9 / (t1 - t0), (c1 - c0) / Math.max(1.0, bytes / (double) PAYLOAD)};
            } finally {
                for (OverlayNode n : nodes) {
                    n.stop();
                }
            }
        }
    }

    /** Median round trip in nanoseconds over a chain of four nodes, driven from the event loops. */
    static double roundTrip(CipherSuite suite, int count) throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(2)) {
            List<OverlayNode> nodes = chain(runtime, suite, "p", "q", "r", "s");
            OverlayNode client = nodes.get(0);
            OverlayNode server = nodes.get(3);
            try {
                long[] rtts = new long[count];
                CountDownLatch done = new CountDownLatch(1);
                byte[] payload = new byte[RTT_PAYLOAD];
                OverlayPort[] ports = new OverlayPort[2];
                ports[1] = server.openPort(9, m -> ports[1].send(m.source(), m.sourcePort(), m.payloadBytes(), METRIC));
                int[] n = {-100}; // the first hundred warm the path up and are not counted
                long[] sent = {0};
                NodeId to = server.id();
                boolean[] resent = {false};
                ports[0] = client.openPort(9, m -> {
                    long now = System.nanoTime();
                    if (n[0] >= count) {
                        return; // a late reply to a ping resent after a loss, once all samples are in
                    }
                    if (resent[0]) {
                        resent[0] = false; // this reply spans a loss: not a sample
                    } else {
                        if (n[0] >= 0) {
                            rtts[n[0]] = now - sent[0];
                        }
                        if (++n[0] == count) {
                            done.countDown();
                            return;
                        }
                    }
                    sent[0] = System.nanoTime();
                    ports[0].send(to, 9, payload, METRIC);
                });
                SendResult first = ports[0].send(to, 9, payload, METRIC);
                sent[0] = System.nanoTime();
                if (first != SendResult.ACCEPTED) {
                    throw new IllegalStateException("first ping refused: " + first);
                }
                long deadline = System.nanoTime() + 60_000_000_000L;
                int seen = n[0];
                while (!done.await(200, TimeUnit.MILLISECONDS)) {
                    int now = client.inspect(e -> n[0]);
                    if (now == seen) {
                        // a ping lost on loopback: send another from the client's thread; the sample that
                        // spans the loss is not counted
                        client.inspect(e -> {
                            resent[0] = true;
                            sent[0] = System.nanoTime();
                            return ports[0].send(to, 9, payload, METRIC);
                        });
                    }
                    seen = now;
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("round trips stalled at " + n[0]);
                    }
                }
                Arrays.sort(rtts);
                return rtts[count / 2];
            } finally {
                for (OverlayNode x : nodes) {
                    x.stop();
                }
            }
        }
    }

    private static String arg(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }
}
