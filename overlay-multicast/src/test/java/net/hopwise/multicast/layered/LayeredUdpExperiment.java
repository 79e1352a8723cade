package net.hopwise.multicast.layered;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;

/**
 * A layered session over loopback UDP between real nodes: a source s, a relay r, and receivers m1,
 * m2 and m3 behind r's outbound impairment capped at 300 Kbit/s, 1 Mbit/s and not at all. Each
 * receiver should settle at the highest level below what its path carries and lose under 1% after
 * that; {@code --change-at} seconds in, m2's cap drops to 300 Kbit/s and m2 should follow. Prints,
 * per run and receiver: the level it settled at beside the level its cap allows, when it got there,
 * moves after it, the share of the time at it, and the worst loss rate of a whole loss window (5 s)
 * after it; then the medians. {@code --bunch B} sends bunches of B packets instead of pairs;
 * {@code --rules thesis} runs the thesis's rules at both ends instead of {@code EraConfig.recommended()},
 * what {@code openLayeredSender} and {@code joinLayered} take without a configuration.
 * Run from the repository root: {@code ./mvnw -q -pl overlay-multicast -am test-compile exec:exec
 * -Dmulticast.exec.skip=false -Dexec.executable=java -Dexec.classpathScope=test -Dexec.args="-cp
 * %classpath net.hopwise.multicast.layered.LayeredUdpExperiment --runs 3 --seconds 40 --change-at 25"}.
 */
public final class LayeredUdpExperiment {
    /** 20 layers of 100 Kbit/s: 300 Kbit/s fits 2, 1 Mbit/s 9, the uncapped path all 20 (2 Mbit/s). */
    static final LayerRates LAYERS = LayerRates.equal(20, 100_000);
    static final Map<String, Long> CAPS = new LinkedHashMap<>();
    static final long CHANGED_CAP = 300_000;

    static {
        CAPS.put("m1", 300_000L);
        CAPS.put("m2", 1_000_000L);
        CAPS.put("m3", 0L);
    }

    private LayeredUdpExperiment() {
    }

    record Row(String receiver, int expected, int level, double settledSeconds, int movesAfter, double atLevelShare,
            int stabilityDrops, double worstLoss, int changedExpected, int changedLevel, double followedSeconds) {}

    public static void main(String[] args) throws Exception {
        int runs = 3;
        int seconds = 40;
        int changeAt = 25;
        int bunch = EraConfig.DEFAULT_BUNCH_LENGTH;
        EraConfig rules = EraConfig.recommended();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--change-at" -> changeAt = Integer.parseInt(args[++i]);
                case "--bunch" -> bunch = Integer.parseInt(args[++i]);
                case "--rules" -> rules = switch (args[++i]) {
                    case "recommended" -> EraConfig.recommended();
                    case "thesis" -> EraConfig.thesis();
                    default -> throw new IllegalArgumentException("--rules recommended or thesis, got " + args[i]);
                };
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Map<String, List<Row>> all = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++) {
            for (Row row : run(seconds, changeAt, rules.toBuilder().bunchLength(bunch).build())) {
                System.out.printf(Locale.ROOT, "run %d %s: level %d (cap allows %d) after %.1f s, then %d moves"
                        + " (%d stability drops), %.1f%% of the time at it, worst loss %.2f%%%s%n", run, row.receiver(),
                        row.level(), row.expected(), row.settledSeconds(), row.movesAfter(), row.stabilityDrops(),
                        100 * row.atLevelShare(), 100 * row.worstLoss(), row.changedExpected() < 0 ? ""
                                : String.format(Locale.ROOT, "; cap cut: level %d (allows %d) %.1f s after the cut",
                                        row.changedLevel(), row.changedExpected(), row.followedSeconds()));
                all.computeIfAbsent(row.receiver(), k -> new ArrayList<>()).add(row);
            }
        }
        for (Map.Entry<String, List<Row>> e : all.entrySet()) {
            List<Row> rows = e.getValue();
            System.out.printf(Locale.ROOT, "median %s: level %d (allows %d), settled after %.1f s, %.1f%% of the"
                    + " time at it after, worst loss %.2f%%%s%n",
                    e.getKey(), (int) median(rows.stream().mapToDouble(Row::level).toArray()), rows.get(0).expected(),
                    median(rows.stream().mapToDouble(Row::settledSeconds).toArray()),
                    100 * median(rows.stream().mapToDouble(Row::atLevelShare).toArray()),
                    100 * median(rows.stream().mapToDouble(Row::worstLoss).toArray()),
                    rows.get(0).changedExpected() < 0 ? "" : String.format(Locale.ROOT, ", after the cut level %d in %.1f s",
                            (int) median(rows.stream().mapToDouble(Row::changedLevel).toArray()),
                            median(rows.stream().mapToDouble(Row::followedSeconds).toArray())));
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * Starts s, r and the receivers' nodes into {@code nodes} (so that the caller stops them whatever
     * happens), links s - r - {m1, m2, m3}, waits for routes and sets r's caps towards the receivers.
     */
    static void startCapped(Map<String, OverlayNode> nodes, NodeRuntime runtime) {
        for (String name : List.of("s", "r", "m1", "m2", "m3")) {
            nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0).defaultMetric(RoutingMetric.HOPS)
                    .module(new MulticastModule()).build(), runtime));
        }
        link(nodes, "s", "r");
        for (String m : CAPS.keySet()) {
            link(nodes, "r", m);
        }
        for (OverlayNode node : nodes.values()) {
            Eventually.await(node.name() + " reaches every node",
                    () -> node.reachableNodes(RoutingMetric.HOPS).containsAll(nodes.keySet()));
        }
        CAPS.forEach((m, cap) -> impair(nodes.get("r"), m, cap));
    }

    /**
     * The level a receiver behind {@code cap} should hold: highest below what a pair measures of it
     * (datagrams plus IP and UDP headers), less the rules' headroom.
     */
    static int allowed(long cap, double headroom) {
        return cap == 0 ? LAYERS.count() - 1 : LAYERS.levelFor(cap * 512.0 / 540 * (1 - headroom), true);
    }

    static List<Row> run(int seconds, int changeAt, EraConfig config) throws Exception {
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        NodeRuntime runtime = NodeRuntime.create(2);
        try {
            startCapped(nodes, runtime);
            Map<String, LayeredReceiver> receivers = new LinkedHashMap<>();
            Map<String, List<EraDecision>> decisions = new LinkedHashMap<>();
            for (String m : CAPS.keySet()) {
                List<EraDecision> trace = new CopyOnWriteArrayList<>();
                decisions.put(m, trace);
                LayeredReceiver r = nodes.get(m).module(Multicast.class).joinLayered("tv", 5004, config, msg -> { });
                r.onDecision(trace::add);
                receivers.put(m, r);
            }
            Multicast source = nodes.get("s").module(Multicast.class);
            Eventually.await("s sees the receivers' nodes", () -> source.memberNodes("tv")
                    .containsAll(Set.of(NodeId.ofName("m1"), NodeId.ofName("m2"), NodeId.ofName("m3"))));
            LayeredSender sender = source.openLayeredSender("tv", 5004, LAYERS, config);
            long opened = System.nanoTime();
            Thread.sleep(changeAt * 1000L);
            long cut = System.nanoTime();
            impair(nodes.get("r"), "m2", CHANGED_CAP);
            Thread.sleep((seconds - changeAt) * 1000L);
            sender.close();
            List<Row> rows = new ArrayList<>();
            for (String m : CAPS.keySet()) {
                boolean changed = m.equals("m2");
                rows.add(row(m, receivers.get(m), decisions.get(m), opened, changed ? cut : System.nanoTime(), changed,
                        config.headroom()));
            }
            return rows;
        } finally {
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    private static Row row(String m, LayeredReceiver r, List<EraDecision> trace, long opened, long until,
            boolean changed, double headroom) {
        List<LevelChange> history = r.history();
        int level = -1;
        long settledAt = opened;
        int moves = 0;
        // The level held longest, and the first arrival there: where the receiver settled.
        Map<Integer, Long> held = new java.util.HashMap<>();
        for (int i = 0; i < history.size() && history.get(i).nowNanos() < until; i++) {
            long end = i + 1 < history.size() ? Math.min(until, history.get(i + 1).nowNanos()) : until;
            held.merge(history.get(i).level(), end - history.get(i).nowNanos(), Long::sum);
        }
        long longest = -1;
        for (Map.Entry<Integer, Long> e : held.entrySet()) {
            if (e.getValue() > longest) {
                longest = e.getValue();
                level = e.getKey();
            }
        }
        for (LevelChange c : history) {
            if (c.nowNanos() < until && c.level() == level) {
                settledAt = c.nowNanos();
                break;
            }
        }
        // The share of the time from settling to the end (or the cut) spent at that level.
        long atLevel = 0;
        int current = level;
        long since = settledAt;
        for (LevelChange c : history) {
            if (c.nowNanos() > settledAt && c.nowNanos() < until) {
                moves++;
                atLevel += current == level ? c.nowNanos() - since : 0;
                current = c.level();
                since = c.nowNanos();
            }
        }
        atLevel += current == level ? until - since : 0;
        double share = until > settledAt ? (double) atLevel / (until - settledAt) : 0;
        int drops = 0;
        long window = EraConfig.DEFAULT_LOSS_WINDOW.toNanos();
        double worst = 0;
        for (EraDecision d : trace) {
            if (d.kind() == EraDecision.Kind.INTERVAL && d.nowNanos() >= settledAt + window && d.nowNanos() < until) {
                worst = Math.max(worst, d.lossRate());
            }
            if (d.kind() == EraDecision.Kind.STABILITY_DROP && d.nowNanos() > settledAt && d.nowNanos() < until) {
                drops++;
            }
        }
        int changedLevel = -1;
        double followed = Double.NaN;
        if (changed) {
            changedLevel = r.level();
            for (LevelChange c : history) {
                if (c.nowNanos() >= until && c.level() == changedLevel) {
                    followed = (c.nowNanos() - until) / 1e9;
                    break;
                }
            }
        }
        return new Row(m, allowed(CAPS.get(m), headroom), level, (settledAt - opened) / 1e9, moves, share, drops, worst,
                changed ? allowed(CHANGED_CAP, headroom) : -1, changedLevel, followed);
    }

    static void impair(OverlayNode relay, String to, long cap) {
        relay.impair(to, Direction.OUTBOUND, cap == 0 ? ImpairmentConfig.none()
                : ImpairmentConfig.builder().rateBitsPerSecond(cap).build());
    }

    static void link(Map<String, OverlayNode> nodes, String x, String y) {
        nodes.get(x).addNeighbour(neighbour(nodes, y));
        nodes.get(y).addNeighbour(neighbour(nodes, x));
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
