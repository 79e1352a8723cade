package net.hopwise.examples.layered;

import static net.hopwise.examples.layered.Bench.SECOND;
import static net.hopwise.examples.layered.ChapterFourScenarios.jain;
import static net.hopwise.examples.layered.ChapterFourScenarios.seconds;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongFunction;
import java.util.stream.LongStream;
import net.hopwise.examples.layered.Bench.Proto;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.multicast.layered.EraConfig;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.LayeredReceiver;
import net.hopwise.multicast.layered.LayeredSender;
import net.hopwise.overlay.link.HelloConfig;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.tcp.TcpFlow;

/**
 * Rows of the benchmark table (B1, B5, B6, B7) run through the multicast module itself: every node on
 * the session's tree is a {@link SimNetwork} node with {@link MulticastModule}, the source opens its
 * session with {@link Multicast#openLayeredSender} and each receiver joins with {@link
 * Multicast#joinLayered}, both with the API's default preset ({@link EraConfig#recommended()});
 * announcements, subscriptions (graft and prune) and data cross the links as the nodes' own
 * datagrams. CBR and TCP Reno cross traffic are the harness's ({@link Bench#cbr}, {@link Bench#tcp}):
 * their packets route themselves through the same links and queues, between plain end nodes. Each
 * row prints beside it {@link BenchmarkTable}'s figures for ERA_RECOMMENDED (its own harness, {@link
 * LayeredSession}, running the same protocol classes) on the same seeds.
 *
 * <p>What the two cannot share, and so differs by construction: the module's nodes first run
 * {@link #WARMUP} of routing before the scenario's clock starts (every instant of a row is shifted by
 * it, and the metrics read the harness's timeline); the source opens its session one adaptation
 * interval before the scenario's start, since a session's first boundary is one interval after it
 * opens; a joining node must become a member of the group before announcements reach it; the round
 * trip in the TCP equation is the routed path's measured latency ({@code RttEstimator.perHopSum})
 * where the harness's is {@code forwardQueue}; and every datagram carries 28 bytes of IP and UDP
 * headers on the wire beyond the session's 512-byte packets.
 *
 * <p>The receivers' figures come from the application's side of the API: the source offers a payload
 * carrying a per-layer counter on every layer, topped up every {@link #TOP_UP_NANOS}, so that every
 * packet of a held layer reaches the handler, and a gap in the counter is a lost packet ({@link
 * ReceiverStats}, the harness's own accounting, counts them the same way; a layer the application
 * left unfed would carry padding, which the handler never sees, and read as loss).
 *
 * <p>Arguments: {@code --seeds n} (default 10), {@code --only list} (B1,B5,B6,B7; default all),
 * {@code --threads n} (seeds in parallel, default 1).
 */
public final class ModuleBenchmarkRows {
    static final Proto HARNESS = Proto.ERA_RECOMMENDED;
    /** Routing converges before the scenario starts; every scenario instant is this much later. */
    static final long WARMUP = 10 * SECOND;
    /** Often enough that no layer's queue of offers empties: 256 offers outlast 0.5 s of chapter 4's fastest layer. */
    static final long TOP_UP_NANOS = SECOND / 10;
    /** What the simulator's links carry beyond each node datagram (IPv4 and UDP), as a real link does. */
    static final int IP_UDP_HEADER_BYTES = 28;
    static final String GROUP = "bench";
    static final int PORT = 5004;
    /** {@code -Dlayered.moduletrace=true}: every receiver's decisions, the way to see why a figure differs. */
    private static final boolean TRACE = Boolean.getBoolean("layered.moduletrace");
    /**
     * {@code -Dlayered.modulehello=ms}: the nodes' hello interval (the overlay's 100 ms unless set), to
     * measure what the nodes' own probes on the bottleneck cost the receivers' pair estimates.
     */
    private static final Duration HELLO = System.getProperty("layered.modulehello") == null ? null
            : Duration.ofMillis(Long.parseLong(System.getProperty("layered.modulehello")));

    /** One row: its title, the module's run and the harness's, each a seed's metrics by name. */
    record Row(String id, String title, LongFunction<Map<String, Double>> module, LongFunction<Map<String, Double>> harness) {
    }

    private ModuleBenchmarkRows() {
    }

    static List<Row> rows(Set<String> only) {
        List<Row> rows = new ArrayList<>();
        if (only == null || only.contains("B1")) {
            rows.add(new Row("B1", "B1: Ch. 4 Exp. I, 1 Mbit/s, CBR 500 Kbit/s at 20 s, 250 Kbit/s at 40 s, 80 s",
                    ModuleBenchmarkRows::b1, s -> ChapterFourScenarios.b1(HARNESS, s)));
        }
        if (only == null || only.contains("B5")) {
            rows.add(new Row("B5", "B5: ERA Exp. I, 300 Kbit/s, 2 receivers, 80 s", ModuleBenchmarkRows::b5,
                    s -> ChapterSixScenarios.b5(HARNESS, s)));
        }
        if (only == null || only.contains("B6")) {
            rows.add(new Row("B6", "B6: ERA Exp. II, 1 Mbit/s, halved by 500 Kbit/s CBR at 20 s, 80 s", ModuleBenchmarkRows::b6,
                    s -> ChapterSixScenarios.b6(HARNESS, s)));
        }
        if (only == null || only.contains("B7")) {
            for (long edge : new long[] {10_000_000, 1_000_000}) {
                for (boolean tcpFirst : new boolean[] {false, true}) {
                    rows.add(new Row("B7", "B7: ERA Exp. III, 1 session + 1 TCP, 400 Kbit/s, exterior " + edge / 1_000_000
                            + " Mbit/s, " + (tcpFirst ? "TCP" : "multicast") + " first, 200 s, last 100 s",
                            s -> b7(edge, tcpFirst, s), s -> ChapterSixScenarios.b7(HARNESS, edge, tcpFirst, s)));
                }
            }
        }
        return rows;
    }

    public static void main(String[] args) throws Exception {
        int seeds = 10;
        int threads = 1;
        Set<String> only = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seeds" -> seeds = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--only" -> only = new LinkedHashSet<>(List.of(args[++i].split(",")));
                case "--help" -> {
                    System.out.println("ModuleBenchmarkRows [--seeds n] [--only B1,B5,B6,B7] [--threads n]: rows of the"
                            + " benchmark table through MulticastModule on simulated nodes, beside BenchmarkTable's"
                            + " ERA_RECOMMENDED on the same seeds");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--help lists them)");
            }
        }
        ForkJoinPool pool = new ForkJoinPool(threads);
        long began = System.nanoTime();
        for (Row row : rows(only)) {
            long rowBegan = System.nanoTime();
            List<Map<String, Double>> module = run(pool, row.module(), seeds);
            long moduleNanos = System.nanoTime() - rowBegan;
            List<Map<String, Double>> harness = run(pool, row.harness(), seeds);
            if (Boolean.getBoolean("layered.perseed")) {
                // As BenchmarkTable's: every seed's figures, to find the run a mean hides.
                for (int i = 0; i < seeds; i++) {
                    System.out.println("seed " + (i + 1) + " module " + module.get(i) + " harness " + harness.get(i));
                }
            }
            System.out.println("### " + row.title() + " (" + seeds + " seeds, mean +- 95% t-interval)");
            System.out.println("| metric | module (MulticastModule on SimNetwork nodes) | harness (BenchmarkTable, "
                    + HARNESS + ") |");
            System.out.println("|---|---|---|");
            for (String metric : module.get(0).keySet()) {
                System.out.println("| " + metric + " | " + BenchmarkTable.ci(column(module, metric)) + " | "
                        + (harness.get(0).containsKey(metric) ? BenchmarkTable.ci(column(harness, metric)) : "-") + " |");
            }
            System.out.printf(Locale.ROOT, "(wall: module %.0f s, harness %.0f s)%n%n", moduleNanos / 1e9,
                    (System.nanoTime() - rowBegan - moduleNanos) / 1e9);
        }
        System.out.printf(Locale.ROOT, "All of it took %.0f s of wall time with %d threads.%n", (System.nanoTime() - began) / 1e9,
                threads);
        pool.shutdown();
    }

    private static List<Map<String, Double>> run(ForkJoinPool pool, LongFunction<Map<String, Double>> scenario, int seeds)
            throws Exception {
        return pool.submit(() -> LongStream.rangeClosed(1, seeds).parallel().mapToObj(scenario).toList()).get();
    }

    static List<Double> column(List<Map<String, Double>> runs, String metric) {
        return runs.stream().map(r -> r.getOrDefault(metric, Double.NaN)).toList();
    }

    // ------------------------------------------------------------------ the rows

    /** B1 as {@link ChapterFourScenarios#b1}, on the module (chapter 4's layers). */
    static Map<String, Double> b1(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (Run run = new Run(seed, Bench.MULTIPLICATIVE, List.of("S", "R0", "R1", "E"), List.of("C", "K"))) {
            double rtt = 0.06;
            run.link("S", "R0", 10_000_000, 10, rtt, 2);
            run.link("C", "R0", 10_000_000, 10, rtt, 2);
            run.link("R0", "R1", 1_000_000, 10, rtt, 2);
            run.link("R1", "E", 10_000_000, 10, rtt, 2);
            run.link("R1", "K", 10_000_000, 10, rtt, 2);
            run.start();
            long start = Simulator.START_NANOS;
            run.source("S", start);
            long join = start + 3 * SECOND + random.nextLong(SECOND / 2);
            ReceiverStats s = run.receiver("E", join);
            Bench.cbr(run.net, run.path("C", "R0", "R1", "K"), ChapterFourScenarios.CBR_FLOW, run.sim(start + 20 * SECOND),
                    500_000, run.sim(start + 40 * SECOND), 250_000);
            long end = start + 80 * SECOND;
            run.runUntil(end);
            Map<String, Double> out = new LinkedHashMap<>();
            int full = run.optimalLevel(1_000_000);
            int most = run.optimalLevel(750_000);
            out.put("conv s", seconds(s.firstLevel(l -> l >= full - 1 && l <= full + 1, join, start + 20 * SECOND), join));
            int wire = run.wireLevel(1_000_000);
            out.put("conv s (wire)", seconds(s.firstLevel(l -> l >= wire - 1 && l <= wire + 1, join, start + 20 * SECOND), join));
            out.put("react@20 s", seconds(s.firstLevel(l -> run.rateOf(l) <= 500_000, start + 20 * SECOND, end),
                    start + 20 * SECOND));
            out.put("react@40 s", seconds(s.firstLevel(l -> l >= most - 1, start + 40 * SECOND, end), start + 40 * SECOND));
            double thr = s.throughput(start + 4 * SECOND, end);
            double available = (16 * 1_000_000.0 + 20 * 500_000 + 40 * 750_000) / 76;
            out.put("Kbit/s", thr / 1000);
            out.put("E", thr / available);
            out.put("PLR", s.lossRate());
            out.put("changes/min", s.changesAfter(start + 20 * SECOND) / 1.0);
            run.check();
            return out;
        }
    }

    /** B5 as {@link ChapterSixScenarios#b5}, on the module. */
    static Map<String, Double> b5(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.06;
        try (Run run = dumbbell(seed, 300_000, 20, 10_000_000, rtt, 1, List.of("S"), List.of("E1", "E2"), List.of(), List.of())) {
            long start = Simulator.START_NANOS;
            run.source("S", start);
            List<ReceiverStats> rs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                rs.add(run.receiver("E" + (i + 1), start + 3 * SECOND + random.nextLong(SECOND)));
            }
            long end = start + 80 * SECOND;
            run.runUntil(end);
            int opt = run.optimalLevel(300_000);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("conv s", rs.stream().mapToDouble(r -> seconds(r.firstLevel(l -> l >= opt - 1 && l <= opt + 1, r.joinedAt, end),
                    r.joinedAt)).average().orElse(Double.NaN));
            int wire = run.wireLevel(300_000);
            out.put("conv s (wire)", rs.stream().mapToDouble(r -> seconds(r.firstLevel(l -> l >= wire - 1 && l <= wire + 1, r.joinedAt,
                    end), r.joinedAt)).average().orElse(Double.NaN));
            double thr = rs.stream().mapToDouble(r -> r.throughput(start + 5 * SECOND, end)).average().orElse(0);
            out.put("Kbit/s", thr / 1000);
            out.put("E", thr / 300_000);
            out.put("PLR", rs.stream().mapToDouble(ReceiverStats::lossRate).average().orElse(0));
            out.put("peak PLR", rs.stream().mapToDouble(r -> r.peakLossRate(r.joinedAt + SECOND, end)).max().orElse(0));
            out.put("changes/min", rs.stream().mapToDouble(r -> r.changesAfter(start + 20 * SECOND) / 1.0).average().orElse(0));
            run.check();
            return out;
        }
    }

    /** B6 as {@link ChapterSixScenarios#b6}, on the module. */
    static Map<String, Double> b6(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.04;
        try (Run run = dumbbell(seed, 1_000_000, 10, 10_000_000, rtt, 2, List.of("S"), List.of("E"), List.of("C"), List.of("K"))) {
            long start = Simulator.START_NANOS;
            run.source("S", start);
            long join = start + 3 * SECOND + random.nextLong(SECOND / 2);
            ReceiverStats r = run.receiver("E", join);
            long halved = start + 20 * SECOND;
            Bench.cbr(run.net, run.path("C", "R0", "R1", "K"), ChapterFourScenarios.CBR_FLOW, run.sim(halved), 500_000);
            long end = start + 80 * SECOND;
            run.runUntil(end);
            int full = run.optimalLevel(1_000_000);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("conv s", seconds(r.firstLevel(l -> l >= full - 1 && l <= full + 1, join, halved), join));
            int wire = run.wireLevel(1_000_000);
            out.put("conv s (wire)", seconds(r.firstLevel(l -> l >= wire - 1 && l <= wire + 1, join, halved), join));
            out.put("before", r.throughput(halved - 10 * SECOND, halved) / 1000);
            out.put("after", r.throughput(halved + 5 * SECOND, end) / 1000);
            out.put("react s", seconds(r.firstLevel(l -> run.rateOf(l) <= 500_000, halved, end), halved));
            out.put("peak PLR", r.peakLossRate(join + SECOND, end));
            out.put("PLR", r.lossRate());
            run.check();
            return out;
        }
    }

    /** B7 as {@link ChapterSixScenarios#b7}, on the module: the TCP Reno flow's segments share the nodes' links. */
    static Map<String, Double> b7(long edgeBps, boolean tcpFirst, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.06;
        try (Run run = dumbbell(seed, 400_000, 20, edgeBps, rtt, 2, List.of("S"), List.of("E"), List.of("T"), List.of("D"))) {
            long start = Simulator.START_NANOS;
            long mcAt = start + (tcpFirst ? 20 * SECOND : 0) + random.nextLong(SECOND / 2);
            long tcpAt = start + (tcpFirst ? 0 : 20 * SECOND) + random.nextLong(SECOND / 2);
            run.source("S", mcAt);
            ReceiverStats r = run.receiver("E", mcAt + 3 * SECOND);
            TcpFlow tcp = Bench.tcp(run.net, 1, run.path("T", "R0", "R1", "D"), run.sim(tcpAt));
            long end = start + 200 * SECOND;
            long from = start + 100 * SECOND;
            long[] at = new long[1];
            Bench.mark(run.net, tcp, run.sim(from), at);
            run.runUntil(end);
            double t = Bench.tcpRate(at[0], tcp.receiver().delivered(), from, end);
            double mc = r.throughput(from, end);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("multicast", mc / 1000);
            out.put("TCP", t / 1000);
            out.put("F", mc / t);
            out.put("Jain", jain(mc, t));
            out.put("PLR", r.lossRate());
            run.check();
            return out;
        }
    }

    /**
     * {@link ChapterSixScenarios}'s dumbbell with the session's nodes ({@code sources}, R0, R1,
     * {@code sinks}) running the module and the cross traffic's ends ({@code crossLeft}, {@code
     * crossRight}) plain.
     */
    private static Run dumbbell(long seed, long bottleneck, double delayMillis, long edgeBps, double rtt, int flows,
            List<String> sources, List<String> sinks, List<String> crossLeft, List<String> crossRight) {
        List<String> overlay = new ArrayList<>(List.of("R0", "R1"));
        overlay.addAll(sources);
        overlay.addAll(sinks);
        List<String> plain = new ArrayList<>(crossLeft);
        plain.addAll(crossRight);
        Run run = new Run(seed, Bench.EQUAL, overlay, plain);
        run.link("R0", "R1", bottleneck, delayMillis, rtt, flows);
        for (String n : sources) {
            run.link(n, "R0", edgeBps, 5, rtt, flows);
        }
        for (String n : crossLeft) {
            run.link(n, "R0", edgeBps, 5, rtt, flows);
        }
        for (String n : sinks) {
            run.link("R1", n, edgeBps, 5, rtt, flows);
        }
        for (String n : crossRight) {
            run.link("R1", n, edgeBps, 5, rtt, flows);
        }
        run.start();
        return run;
    }

    // ------------------------------------------------------------------ one run on the module

    /**
     * A network of module nodes and plain nodes, one layered session on it, and its receivers' stats
     * on the harness's timeline (virtual time less {@link #WARMUP}).
     */
    static final class Run implements AutoCloseable {
        final SimNetwork net;
        final LayerRates layers;
        private final List<ReceiverStats> receivers = new ArrayList<>();
        private final List<LayeredReceiver[]> joined = new ArrayList<>();
        private LayeredSender sender;
        /** Per layer, the next counter the source offers. */
        private final long[] offered;
        private final String suffix;

        Run(long seed, LayerRates layers, List<String> overlay, List<String> plain) {
            this.net = new SimNetwork(seed, b -> {
                b.module(new MulticastModule());
                if (HELLO != null) {
                    b.hello(HelloConfig.builder().interval(HELLO)
                            .downInterval(HELLO.compareTo(HelloConfig.DEFAULT_DOWN_INTERVAL) > 0 ? HELLO : HelloConfig.DEFAULT_DOWN_INTERVAL)
                            .build());
                }
            });
            this.layers = layers;
            this.offered = new long[layers.count()];
            this.suffix = "." + seed;
            overlay.forEach(n -> net.node(n(n)));
            plain.forEach(n -> net.plainNode(n(n)));
        }

        /**
         * The simulated node of the scenario's node {@code name}: the seed is in every name because a
         * module source seeds its bunches' jitter from its session and node identity (the name's
         * hash), where the harness's sender takes the run's seed; without it every seed would send
         * the same jitter, and the seeds would differ only in their join instants.
         */
        String n(String name) {
            return name + suffix;
        }

        String[] path(String... names) {
            return java.util.Arrays.stream(names).map(this::n).toArray(String[]::new);
        }

        /** A link with the harness's queue for ERA_RECOMMENDED (DropTail, 2 x BDP). */
        void link(String a, String b, long bps, double delayMillis, double rtt, int flows) {
            net.link(n(a), n(b), Bench.link(HARNESS, bps, delayMillis, rtt, flows));
        }

        void start() {
            net.start();
            net.runFor(Duration.ofNanos(WARMUP));
        }

        /** The virtual time of the harness's instant {@code t}. */
        long sim(long t) {
            return t + WARMUP;
        }

        void runUntil(long t) {
            net.runUntil(sim(t));
        }

        /**
         * Opens the session at {@code node} one adaptation interval before {@code startNanos}, so that
         * its first boundary, where the harness's sender starts, is at {@code startNanos}.
         */
        void source(String node, long startNanos) {
            long open = sim(startNanos) - EraConfig.recommended().adaptationIntervalNanos();
            net.at(open, now -> {
                net.nodeNamed(n(node)).interact(stack -> sender = stack.module(Multicast.class).openLayeredSender(GROUP, PORT, layers));
                topUp(now);
            });
        }

        private void topUp(long now) {
            for (int layer = 0; layer < offered.length; layer++) {
                while (sender.offer(layer, ByteBuffer.allocate(4).putInt((int) offered[layer]).array())) {
                    offered[layer] = (offered[layer] + 1) & 0xFFFF_FFFFL;
                }
            }
            net.at(now + TOP_UP_NANOS, this::topUp);
        }

        /** A receiver joining at {@code node} at the harness's instant {@code joinNanos}. */
        ReceiverStats receiver(String node, long joinNanos) {
            ReceiverStats stats = new ReceiverStats(layers.count());
            receivers.add(stats);
            LayeredReceiver[] slot = new LayeredReceiver[1];
            joined.add(slot);
            int packetBytes = EraConfig.recommended().packetBytes();
            net.at(sim(joinNanos), now -> net.nodeNamed(n(node)).interact(stack -> {
                stats.joinedAt = now - WARMUP;
                int[] held = {-1};
                LayeredReceiver r = stack.module(Multicast.class).joinLayered(GROUP, PORT, m -> {
                    long counter = ByteBuffer.wrap(m.payload()).getInt() & 0xFFFF_FFFFL;
                    // The application's counter as the sequence: a gap is a lost packet, never a padded one.
                    stats.received(new LayeredPacket(m.sessionId(), 0, m.layer(), counter, 0, false, 2, 0), packetBytes,
                            net.now() - WARMUP);
                });
                slot[0] = r;
                if (TRACE) {
                    r.onDecision(d -> System.out.println("seed " + net.seed() + " " + node + " " + d));
                }
                r.onLevelChange(c -> {
                    // Layers left are forgotten as the harness's receiver forgets them, so a rejoin is not a gap.
                    for (int layer = held[0]; layer > c.level(); layer--) {
                        stats.forget(layer);
                    }
                    held[0] = c.level();
                    stats.levelChanged(c.level(), net.now() - WARMUP);
                });
            }));
            return stats;
        }

        int optimalLevel(double bps) {
            return layers.levelFor(bps, true);
        }

        /**
         * The level under the strict rule for what a pair measures of {@code bps} on the module: 512
         * of the 540 bytes each datagram takes on the wire. The harness's convergence band, around
         * {@link #optimalLevel}, lies above what a module receiver can measure on the faster links.
         */
        int wireLevel(double bps) {
            int packet = EraConfig.recommended().packetBytes();
            return layers.levelFor(bps * packet / (packet + IP_UDP_HEADER_BYTES), true);
        }

        double rateOf(int level) {
            return level < 0 ? 0 : layers.cumulative(level);
        }

        /**
         * Fails when the run measured nothing (the session never reached a receiver), or when a held
         * packet carried padding (a layer's offers ran out), which the figures would have missed.
         */
        void check() {
            for (int i = 0; i < receivers.size(); i++) {
                ReceiverStats s = receivers.get(i);
                LayeredReceiver r = joined.get(i)[0];
                if (r == null || s.packets == 0) {
                    throw new IllegalStateException("seed " + net.seed() + ": a receiver got no packet of the session");
                }
                if (r.packetsReceived() != s.packets) {
                    throw new IllegalStateException("seed " + net.seed() + ": " + (r.packetsReceived() - s.packets)
                            + " held packets carried padding: the offers ran out");
                }
            }
        }

        @Override
        public void close() {
            if (sender != null) {
                sender.close();
            }
            net.close();
        }
    }
}
