package net.hopwise.examples.realtime;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.RealTimeFlow;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.node.RealTimeChannel;
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Voice-like real-time flows across a 3-hop loopback chain a-b-c-d (10 ms per link, each direction),
 * with Bernoulli loss on both directions of the middle link b-c, once with real-time recovery and
 * once without (plain forwarding, the UDP baseline). G.711-like flows: 160-byte packets every 20 ms;
 * several flows, offset in time, aggregate on each link as in the thesis' experiments. It prints a
 * table and, with {@code --docs FILE}, writes the "Real-time links" section of that file.
 *
 * <pre>./mvnw -q -pl overlay-examples -am test-compile exec:java \
 *     -Dexec.mainClass=net.hopwise.examples.realtime.RealTimeBenchmark \
 *     -Dexec.args="--seconds 60 --flows 10 --loss 0.05"</pre>
 */
public final class RealTimeBenchmark {
    private static final List<String> CHAIN = List.of("a", "b", "c", "d");
    private static final int SINK_PORT = 5004;
    private static final long PACKET_INTERVAL_MS = 20;
    private static final int PACKET_BYTES = 160;
    private static final Duration LINK_DELAY = Duration.ofMillis(10);
    private static final String SECTION = "## Real-time links";

    private record Result(String label, long sent, long received, long lost, long late, double p50Ms, double p99Ms,
            double maxMs, double jitterMs, long retransmissions, long nacks) {
        double lossRate() {
            return (double) lost / (received + lost);
        }

        double lateRate() {
            return (double) late / (received + lost);
        }
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> options = parse(args);
        int seconds = Integer.parseInt(options.getOrDefault("seconds", "60"));
        int flows = Integer.parseInt(options.getOrDefault("flows", "10"));
        double loss = Double.parseDouble(options.getOrDefault("loss", "0.05"));
        // Only when asked: a trial run must not overwrite the figures of record.
        Path docs = options.containsKey("docs") ? Path.of(options.get("docs")) : null;

        List<Result> results = new ArrayList<>();
        results.add(run("real-time recovery", true, seconds, flows, loss));
        results.add(run("no recovery (UDP-like)", false, seconds, flows, loss));

        String table = table(results, loss);
        System.out.println(table);
        String command = "./mvnw -q -pl overlay-examples -am test-compile exec:java "
                + "-Dexec.mainClass=net.hopwise.examples.realtime.RealTimeBenchmark "
                + "-Dexec.args=\"--seconds " + seconds + " --flows " + flows + " --loss " + loss
                + " --docs docs/benchmarks.md\"";
        if (docs != null) {
            writeSection(docs, section(command, seconds, flows, loss, table));
        }
    }

    private static Result run(String label, boolean recovery, int seconds, int flows, double loss) {
        RealTimeConfig realTime = RealTimeConfig.builder().recovery(recovery).build();
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        NodeRuntime runtime = NodeRuntime.create(2);
        try {
            long seed = 1;
            for (String name : CHAIN) {
                nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0).realTime(realTime)
                        .impairmentSeed(seed++).build(), runtime));
            }
            for (int i = 0; i + 1 < CHAIN.size(); i++) {
                OverlayNode x = nodes.get(CHAIN.get(i));
                OverlayNode y = nodes.get(CHAIN.get(i + 1));
                x.addNeighbour(neighbour(y));
                y.addNeighbour(neighbour(x));
                boolean lossy = i == 1;
                ImpairmentConfig.Builder impairment = ImpairmentConfig.builder().delay(LINK_DELAY);
                if (lossy) {
                    impairment.bernoulliLoss(loss);
                }
                x.impair(y.name(), Direction.OUTBOUND, impairment.build());
                y.impair(x.name(), Direction.OUTBOUND, impairment.build());
            }
            OverlayNode a = nodes.get("a");
            OverlayNode d = nodes.get("d");
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!a.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("d")) {
                if (System.nanoTime() > waitUntil) {
                    throw new IllegalStateException("a never found a route to d");
                }
                LockSupport.parkNanos(50_000_000);
            }
            OverlayPort sink = d.openPort(SINK_PORT, m -> {});
            List<RealTimeFlow> senders = new ArrayList<>();
            for (int f = 0; f < flows; f++) {
                senders.add(a.openPort(4000 + f, m -> {}).openRealTime("d", SINK_PORT));
            }
            ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
            byte[] frame = new byte[PACKET_BYTES];
            long packetsPerFlow = seconds * 1000L / PACKET_INTERVAL_MS;
            for (int f = 0; f < flows; f++) {
                RealTimeFlow flow = senders.get(f);
                // Flows offset evenly inside the 20 ms frame, so the links see one packet every 20/flows ms.
                long offsetMicros = f * PACKET_INTERVAL_MS * 1000 / flows;
                clock.scheduleAtFixedRate(() -> {
                    if (flow.packetsSent() < packetsPerFlow) {
                        flow.send(frame);
                    }
                }, offsetMicros, PACKET_INTERVAL_MS * 1000, TimeUnit.MICROSECONDS);
            }
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(seconds) + TimeUnit.MILLISECONDS.toNanos(500));
            clock.shutdownNow();
            // The last packets need a moment (and any recovery of them); nothing is sent meanwhile.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));

            List<RealTimeFlowStatistics> stats = sink.realTimeFlows();
            long sent = senders.stream().mapToLong(RealTimeFlow::packetsSent).sum();
            long received = 0;
            long lost = 0;
            long late = 0;
            double p50 = 0;
            double p99 = 0;
            double max = 0;
            double jitter = 0;
            for (RealTimeFlowStatistics s : stats) {
                received += s.received();
                late += s.late();
                p50 += s.p50DelayNanos() / 1e6;
                p99 += s.p99DelayNanos() / 1e6;
                max = Math.max(max, s.maxDelayNanos() / 1e6);
                jitter += s.jitterNanos() / 1e6;
            }
            // Loss against what was sent: a lost first or last packet counts too.
            lost = sent - received;
            int n = Math.max(1, stats.size());
            RealTimeChannel bc = nodes.get("b").inspect(e -> e.realTimeChannel(nodes.get("c").id()));
            RealTimeChannel cb = nodes.get("c").inspect(e -> e.realTimeChannel(nodes.get("b").id()));
            long retransmissions = bc == null ? 0 : bc.retransmissions();
            long nacks = cb == null ? 0 : cb.nacksSent();
            return new Result(label, sent, received, lost, late, p50 / n, p99 / n, max, jitter / n, retransmissions,
                    nacks);
        } finally {
            // Nodes first: they need the runtime's event loops to stop.
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    private static NeighbourConfig neighbour(OverlayNode node) {
        return new NeighbourConfig(node.name(), new InetSocketAddress("127.0.0.1", node.localAddress().getPort()));
    }

    private static String table(List<Result> results, double p) {
        StringBuilder sb = new StringBuilder();
        sb.append("| mode | packets sent | residual loss | late (> 100 ms) | one-way delay p50 | p99 | max "
                + "| jitter (RFC 3550) | retransmissions b→c | NACKs c→b |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.3f%% (%d) | %.3f%% (%d) | %.1f ms | %.1f ms | %.1f ms "
                    + "| %.2f ms | %d | %d |%n", r.label(), r.sent(), 100 * r.lossRate(), r.lost(), 100 * r.lateRate(),
                    r.late(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.jitterMs(), r.retransmissions(), r.nacks()));
        }
        double thesis = 2 * p * p - 3 * p * p * p;
        double exact = 2 * p * p - p * p * p;
        sb.append(String.format(Locale.ROOT, "| Danilov's model, p = %.0f%% | | %.3f%% (2p²−3p³); %.3f%% (2p²−p³, with "
                + "multi-loss events) | | 30 ms; recovered on b-c: 30 ms + 2T + Δ = 50 ms + Δ | | | | | |%n",
                100 * p, 100 * thesis, 100 * exact));
        sb.append(String.format(Locale.ROOT, "| no recovery, expected | | %.3f%% (p) | | | | | | | |%n", 100 * p));
        long n = results.get(0).sent();
        sb.append(String.format(Locale.ROOT, "%nSampling error: at the model's %.3f%% the lost count of %d packets is "
                + "%.0f ± %.0f (one binomial standard deviation); without recovery %.0f ± %.0f.%n", 100 * exact, n,
                n * exact, Math.sqrt(n * exact * (1 - exact)), n * p, Math.sqrt(n * p * (1 - p))));
        return sb.toString();
    }

    private static String section(String command, int seconds, int flows, double p, String table) {
        String date = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        String machine = machine();
        return SECTION + "\n\n"
                + "A real-time stream across a 3-hop loopback chain a-b-c-d, one UDP socket per node in one JVM. "
                + "Every link direction is delayed 10 ms by the impairment handler; the middle link b-c loses "
                + String.format(Locale.ROOT, "%.0f%%", 100 * p) + " of packets in both directions (Bernoulli: data, "
                + "NACKs and retransmissions alike), as in the thesis' model. " + flows + " G.711-like flows (160 B "
                + "every 20 ms, offset so the links see one packet every " + (20.0 / flows) + " ms) run for " + seconds
                + " s, routed by expected latency. The baseline is the same overlay with recovery off "
                + "(`RealTimeConfig.recovery(false)`): forwarding only, like plain UDP over the same path. Delay "
                + "is measured from the send stamp to delivery (same JVM, so the clocks agree); p50/p99/jitter are "
                + "means over the flows, max is over all packets; residual loss is sent minus delivered.\n\n"
                + "Command: `" + command + "`\n\n"
                + "Date: " + date + "  \nMachine: " + machine + "\n\n"
                + table + "\n"
                + "Thesis (§6.2.1, Fig 6.3/6.5): 5% link loss → about 0.5% residual (\"a factor of 10\"), recovered "
                + "packets at about 3T + Δ on the lossy link. The model's 2p²−3p³ leaves out losses of two "
                + "consecutive packets; counting them the protocol's residual loss is 2p²−p³ (see "
                + "`ResidualLossTest`, which checks both on virtual time).\n";
    }

    private static String machine() {
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: the OS name below still says what ran it.
        }
        return cpu + ", " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name")
                + " " + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version");
    }

    /** Replaces this benchmark's section of the file, or appends it, leaving other sections alone. */
    private static void writeSection(Path file, String section) throws IOException {
        String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8)
                : "# Benchmarks\n\nEach section is written by its benchmark scenario; the command reproduces it.\n";
        int start = text.indexOf(SECTION);
        String updated;
        if (start < 0) {
            updated = text.stripTrailing() + "\n\n" + section;
        } else {
            int end = text.indexOf("\n## ", start + SECTION.length());
            updated = text.substring(0, start) + section + (end < 0 ? "" : text.substring(end + 1));
        }
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, updated, StandardCharsets.UTF_8);
        System.out.println("wrote " + file.toAbsolutePath());
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    private RealTimeBenchmark() {}
}
