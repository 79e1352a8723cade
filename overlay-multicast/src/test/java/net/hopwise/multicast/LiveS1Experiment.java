package net.hopwise.multicast;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;

/**
 * The thesis's scenario S1 live, over loopback UDP between seven real nodes on one runtime of two event
 * loops, Cost-Benefit on with the thesis's parameters: the tree and classes of {@link
 * CostBenefitScenarios} (20 clients on A to members C, F, G; 20 on C to members D, G), each link delayed
 * as there by the sending node's outbound impairment, the bottlenecks capped by the impairment's rate
 * caps, 2 Mbit/s E to F and 1 Mbit/s B to D (queues of 50 packets, as the simulation's DropTail);
 * the other links are not capped (loopback carries far more than the thesis's 10 Mbit/s). Each
 * class's sending rate is counted as the simulator's is (every packet's body with the channel and wire
 * headers; payload beside it), over {@code --seconds} after {@code --warmup}.
 *
 * <p>Run from the repository root under the lock: {@code flock /tmp/hopwise-mvn.lock ./mvnw -o -q -pl
 * overlay-multicast -am test-compile exec:exec -Dmulticast.exec.skip=false -Dexec.executable=java
 * -Dexec.classpathScope=test -Dexec.args="-cp %classpath net.hopwise.multicast.LiveS1Experiment --runs 3
 * --seconds 60"}.
 */
public final class LiveS1Experiment {
    private static final long MBIT = 1_000_000L;

    private LiveS1Experiment() {}

    record Result(CostBenefitScenarios.ClassRate acfg, CostBenefitScenarios.ClassRate cdg, long blocked) {}

    public static void main(String[] args) throws Exception {
        int runs = 3;
        int seconds = 60;
        int warmup = 20;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<Result> results = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            Result r = run(run, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds));
            results.add(r);
            System.out.printf(Locale.ROOT, "run %d: S_acfg %.3f Mbit/s (payload %.3f, spread %.1f%%),"
                    + " S_cdg %.3f Mbit/s (payload %.3f, spread %.1f%%), refused sends %d%n", run, r.acfg().wireMbps(),
                    r.acfg().payloadMbps(), r.acfg().spreadPercent(), r.cdg().wireMbps(), r.cdg().payloadMbps(),
                    r.cdg().spreadPercent(), r.blocked());
        }
        System.out.printf(Locale.ROOT, "median: S_acfg %.3f Mbit/s, S_cdg %.3f Mbit/s (thesis 1.977 and 0.992)%n",
                FanOutExperiment.median(results.stream().mapToDouble(r -> r.acfg().wireMbps()).toArray()),
                FanOutExperiment.median(results.stream().mapToDouble(r -> r.cdg().wireMbps()).toArray()));
    }

    static Result run(long seed, Duration warmup, Duration measured) throws Exception {
        NodeRuntime runtime = NodeRuntime.create(2);
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        List<CostBenefitScenarios.GreedyClient> all = new ArrayList<>();
        try {
            for (String n : List.of("a", "b", "c", "d", "e", "f", "g")) {
                nodes.put(n, OverlayNode.start(NodeConfig.builder(n).loopback(0).defaultMetric(RoutingMetric.LATENCY)
                        .module(CostBenefitScenarios.module()).build(), runtime));
            }
            link(nodes, "a", "b", 15, 0);
            link(nodes, "b", "c", 10, 0);
            link(nodes, "b", "d", 10, MBIT);
            link(nodes, "b", "e", 10, 0);
            link(nodes, "e", "f", 5, 2 * MBIT);
            link(nodes, "e", "g", 5, 0);
            for (OverlayNode node : nodes.values()) {
                Eventually.await(node.name() + " reaches every node",
                        () -> node.reachableNodes(RoutingMetric.LATENCY).containsAll(nodes.keySet()));
            }
            for (String m : List.of("c", "f", "g")) {
                nodes.get(m).module(Multicast.class).join("acfg", 9, msg -> { });
            }
            for (String m : List.of("d", "g")) {
                nodes.get(m).module(Multicast.class).join("cdg", 9, msg -> { });
            }
            Eventually.await("a and c see the members", () -> nodes.get("a").module(Multicast.class)
                    .memberNodes("acfg").size() == 3 && nodes.get("c").module(Multicast.class).memberNodes("cdg").size() == 2);
            // The routes settle on measured latencies: let them, as the simulated run waits 20 s.
            Thread.sleep(5_000);
            List<CostBenefitScenarios.GreedyClient> acfg = clients(nodes.get("a"), "acfg");
            List<CostBenefitScenarios.GreedyClient> cdg = clients(nodes.get("c"), "cdg");
            all.addAll(acfg);
            all.addAll(cdg);
            SplittableRandom random = new SplittableRandom(seed);
            // Started at random instants of the first second, as the simulated clients are.
            List<CostBenefitScenarios.GreedyClient> order = new ArrayList<>(all);
            java.util.Collections.shuffle(order, new java.util.Random(seed));
            for (CostBenefitScenarios.GreedyClient c : order) {
                Thread.sleep(random.nextInt(50));
                c.next();
            }
            Thread.sleep(warmup.toMillis());
            long[] acfgStart = CostBenefitScenarios.counts(acfg);
            long[] cdgStart = CostBenefitScenarios.counts(cdg);
            long t0 = System.nanoTime();
            Thread.sleep(measured.toMillis());
            double secondsMeasured = (System.nanoTime() - t0) / 1e9;
            long blocked = 0;
            for (CostBenefitScenarios.GreedyClient c : all) {
                blocked += c.sender.statistics().blocked();
            }
            return new Result(CostBenefitScenarios.rate("S_acfg", acfg, acfgStart, secondsMeasured),
                    CostBenefitScenarios.rate("S_cdg", cdg, cdgStart, secondsMeasured), blocked);
        } finally {
            all.forEach(c -> c.sender.close());
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    private static List<CostBenefitScenarios.GreedyClient> clients(OverlayNode node, String group) {
        List<CostBenefitScenarios.GreedyClient> clients = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            clients.add(new CostBenefitScenarios.GreedyClient(node.module(Multicast.class).sender(group, 9,
                    RoutingMetric.LATENCY)));
        }
        return clients;
    }

    /** Both directions delayed by {@code delayMillis}; the direction x to y also capped at {@code cap} (0: none). */
    private static void link(Map<String, OverlayNode> nodes, String x, String y, int delayMillis, long cap) {
        nodes.get(x).addNeighbour(neighbour(nodes, y));
        nodes.get(y).addNeighbour(neighbour(nodes, x));
        ImpairmentConfig.Builder there = ImpairmentConfig.builder().delay(Duration.ofMillis(delayMillis));
        if (cap > 0) {
            there.rateBitsPerSecond(cap).queueLimitPackets(50);
        }
        nodes.get(x).impair(y, Direction.OUTBOUND, there.build());
        nodes.get(y).impair(x, Direction.OUTBOUND, ImpairmentConfig.builder().delay(Duration.ofMillis(delayMillis))
                .build());
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
