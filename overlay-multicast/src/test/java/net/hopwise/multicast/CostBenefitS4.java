package net.hopwise.multicast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.wire.DropReason;

/**
 * S4 of the thesis (Danilov 2004, section 4.5, figures 4.12-4.13) on the simulator, the module
 * unchanged with the thesis's parameters: {@code pairs} sender nodes behind A and as many receiver
 * nodes behind B, each on its own node (100 Mbit/s, 0.1 ms access links), A-B the shared 2 Mbit/s
 * bottleneck (10 ms, chosen; the simulator's default queue, as in S1); group i has the members R_i,
 * R_i+1, R_i+2 (mod pairs), and sender S_i, for the first {@code senders} of them, sends greedily to
 * group i. The thesis's size is 800 pairs (1602 nodes) with 5 to 800 senders: aggregate 1.979 Mbit/s
 * and a peak buffer under 170 packets at 800 senders.
 *
 * <p>One change of topology, forced by the overlay: a node's link-state advertisement fits one
 * datagram, about 70 links, and keeps its lowest-latency ones, so A with 801 neighbours would leave
 * out A-B (its slowest) and nothing would route across the bottleneck. The senders reach A, and the
 * receivers B, through hubs of {@value #PER_HUB} nodes each (40 a side at 800 pairs), on the same
 * 100 Mbit/s, 0.1 ms links: one more hop of 0.1 ms and 80 us of serialisation before and after the
 * 2 Mbit/s, 10 ms bottleneck, which is where S4's queue and costs are.
 *
 * <p>Before the senders start, the run checks that the overlay is ready: every sender reaches its
 * group's three members (routes and memberships converged), else it says how far it got instead of
 * measuring senders whose trees are empty.
 *
 * <p>Run (a simulator experiment: idle priority, one at a time): {@code chrt --idle 0 java -Xmx12g -Xmn4g
 * -XX:+UseParallelGC -cp <test class path> net.hopwise.multicast.CostBenefitS4 --pairs 800 --senders 800
 * --seconds 10 --seeds 1} ({@code --warmup s}: the senders' time before the measurement, 10 s by default;
 * {@code --first-seed n}: seeds n to n + seeds - 1; {@code --every-slow-update}: every node floods its
 * costs every T_max, idle or not, the thesis's literal rule). At full size the live heap is 3 to 4.5 GB;
 * the Parallel collector with a large
 * young generation spends a seventh of what G1 spent on the large, pointer-rich old generation of
 * link-state databases. Each full-size run is about 15 minutes of one core.
 */
public final class CostBenefitS4 {
    /** Senders (and receivers) a hub carries: well within an advertisement's links, with room to spare. */
    static final int PER_HUB = 20;

    private CostBenefitS4() {}

    /** S4's outcome: the senders' aggregate wire rate and the peak buffer of the A-B link. */
    record Result(int pairs, int senders, double aggregateMbps, int peakBuffer, double setupSeconds,
            double cpuSeconds, String readiness, double carriedMbps, double bufferAtStart, double bufferAtEnd,
            double updatesMbps, long updatesAlone) {}

    public static void main(String[] args) {
        int pairs = 800;
        String senders = "5,100,200,400,800";
        int seconds = 30;
        int seeds = 3;
        int firstSeed = 1;
        int settle = 0;
        int warmup = 10;
        CostBenefitConfig config = CostBenefitConfig.thesis();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--pairs" -> pairs = Integer.parseInt(args[++i]);
                case "--senders" -> senders = args[++i];
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--seeds" -> seeds = Integer.parseInt(args[++i]);
                case "--first-seed" -> firstSeed = Integer.parseInt(args[++i]);
                case "--settle" -> settle = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--every-slow-update" -> config = CostBenefitConfig.builder().quietWhenIdle(false).build();
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (--pairs n, --senders a,b,c, --seconds n, --seeds n, --first-seed n, --settle s,"
                        + " --warmup s, --every-slow-update)");
            }
        }
        int hubs = (pairs + PER_HUB - 1) / PER_HUB;
        System.out.printf(Locale.ROOT, "S4, %d pairs (%d nodes, %d hubs among them), %d s measured after %d s; thesis (800"
                + " pairs): aggregate 1.979 Mbit/s, peak A-B buffer under 170 packets at 800 senders%n", pairs,
                2 * pairs + 2 + 2 * hubs, 2 * hubs, seconds, warmup);
        System.out.println(config.quietWhenIdle() ? "idle nodes skip their T_max cost updates (quietWhenIdle)"
                : "every node floods its costs every T_max (--every-slow-update, the thesis's literal rule)");
        // Over a short span the senders' rate and the link's differ by the buffer's drift: both are shown.
        System.out.printf(Locale.ROOT, "%-5s %8s %16s %22s %14s %16s %17s %9s %8s %s%n", "seed", "senders",
                "aggregate Mbit/s", "peak A-B buffer (pkts)", "A-B wire Mbit/s", "A-B avg start/end",
                "A-B updates Mbit/s", "setup s", "CPU s", "ready");
        for (String n : senders.split(",")) {
            int k = Math.min(pairs, Integer.parseInt(n.trim()));
            for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
                Result r = run(seed, pairs, k, Duration.ofSeconds(settle), Duration.ofSeconds(warmup),
                        Duration.ofSeconds(seconds), config);
                System.out.printf(Locale.ROOT, "%-5d %8d %16.3f %22d %14.3f %16s %17s %9.1f %8.1f %s%n", seed, k,
                        r.aggregateMbps(), r.peakBuffer(), r.carriedMbps(),
                        String.format(Locale.ROOT, "%.0f/%.0f", r.bufferAtStart(), r.bufferAtEnd()),
                        String.format(Locale.ROOT, "%.4f+%d alone", r.updatesMbps(), r.updatesAlone()),
                        r.setupSeconds(), r.cpuSeconds(), r.readiness());
            }
        }
    }

    static Result run(long seed, int pairs, int senders, Duration settle, Duration warmup, Duration measured,
            CostBenefitConfig config) {
        long t0 = System.nanoTime();
        LinkSpec access = LinkSpec.builder().bandwidthBitsPerSecond(100 * CostBenefitScenarios.MBIT)
                .delay(Duration.ofNanos(100_000)).build();
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(CostBenefitScenarios.module(config)))) {
            net.node("a");
            net.node("b");
            net.link("a", "b", CostBenefitScenarios.link(2 * CostBenefitScenarios.MBIT, 10));
            for (int h = 0; h * PER_HUB < pairs; h++) {
                net.node("hs" + h);
                net.node("hr" + h);
                net.link("hs" + h, "a", access);
                net.link("b", "hr" + h, access);
            }
            for (int i = 0; i < pairs; i++) {
                net.node("s" + i);
                net.node("r" + i);
                net.link("s" + i, "hs" + i / PER_HUB, access);
                net.link("hr" + i / PER_HUB, "r" + i, access);
            }
            net.start();
            progress(net, t0, "started");
            runInSteps(net, t0, Duration.ofSeconds(20).plus(settle), "routes");
            for (int i = 0; i < pairs; i++) {
                int member = i;
                net.nodeNamed("r" + i).interact(st -> {
                    for (int k = 0; k < 3; k++) {
                        st.module(Multicast.class).join("g" + Math.floorMod(member - k, pairs), 9, msg -> { });
                    }
                });
            }
            runInSteps(net, t0, Duration.ofSeconds(5), "memberships");
            String readiness = readiness(net, pairs, senders);
            double setup = (System.nanoTime() - t0) / 1e9;
            List<CostBenefitScenarios.GreedyClient> clients = new ArrayList<>();
            for (int i = 0; i < senders; i++) {
                clients.addAll(CostBenefitScenarios.clients(net, "s" + i, "g" + i, 1));
            }
            runInSteps(net, t0, warmup, "warm-up");
            long[] start = CostBenefitScenarios.counts(clients);
            long carriedAtStart = CostBenefitScenarios.carried(net, "a", "b");
            int peak = 0;
            NodeId b = NodeId.ofName("b");
            double bufferAtStart = averageBuffer(net, b);
            LinkBuffer updatesAtStart = buffer(net, b);
            long end = net.now() + measured.toNanos();
            while (net.now() < end) {
                net.runFor(Duration.ofMillis(50));
                if (net.now() % 5_000_000_000L < 50_000_000L) {
                    progress(net, t0, "measuring, peak " + peak);
                }
                for (LinkBuffer lb : net.engine("a").module(Multicast.class).linkBuffers()) {
                    if (lb.neighbour().equals(b)) {
                        peak = Math.max(peak, lb.peak());
                    }
                }
            }
            double rate = CostBenefitScenarios.rate("S4", clients, start, measured.toNanos() / 1e9).wireMbps();
            double carried = (CostBenefitScenarios.carried(net, "a", "b") - carriedAtStart) * 8.0
                    / (measured.toNanos() / 1e9) / 1e6;
            // The cost updates of every origin that rode across A-B on its packets: the A-B wire's share not the clients'.
            LinkBuffer updatesAtEnd = buffer(net, b);
            double updates = updatesAtStart == null || updatesAtEnd == null ? 0
                    : (updatesAtEnd.updateBytes() - updatesAtStart.updateBytes()) * 8.0 / (measured.toNanos() / 1e9) / 1e6;
            long alone = updatesAtStart == null || updatesAtEnd == null ? 0
                    : updatesAtEnd.updatesAlone() - updatesAtStart.updatesAlone();
            return new Result(pairs, senders, rate, peak, setup, (System.nanoTime() - t0) / 1e9, readiness, carried,
                    bufferAtStart, averageBuffer(net, b), updates, alone);
        }
    }

    /** The A-B buffer's average over the last cost update period. */
    private static double averageBuffer(SimNetwork net, NodeId b) {
        LinkBuffer lb = buffer(net, b);
        return lb == null ? 0 : lb.average();
    }

    /** A's flow-controlled link to B as its last cost update saw it; null before it carried anything. */
    private static LinkBuffer buffer(SimNetwork net, NodeId b) {
        for (LinkBuffer lb : net.engine("a").module(Multicast.class).linkBuffers()) {
            if (lb.neighbour().equals(b)) {
                return lb;
            }
        }
        return null;
    }

    /** Runs {@code span} of virtual time, saying every 5 s how far it got: a full-size run takes long. */
    private static void runInSteps(SimNetwork net, long t0, Duration span, String phase) {
        long end = net.now() + span.toNanos();
        while (net.now() < end) {
            net.runUntil(Math.min(end, net.now() + 5_000_000_000L));
            progress(net, t0, phase);
        }
    }

    private static void progress(SimNetwork net, long t0, String phase) {
        Runtime rt = Runtime.getRuntime();
        System.err.printf(Locale.ROOT, "  [%s] virtual %.1f s, wall %.0f s, heap used %d MB%n", phase, net.now() / 1e9,
                (System.nanoTime() - t0) / 1e9, (rt.totalMemory() - rt.freeMemory()) >> 20);
    }

    /** Whether each sender's node routes to its group's members and knows them all; how many do. */
    private static String readiness(SimNetwork net, int pairs, int senders) {
        int routed = 0;
        int known = 0;
        for (int i = 0; i < senders; i++) {
            var stack = net.engine("s" + i);
            stack.advance(net.now());
            java.util.Set<NodeId> members = stack.module(Multicast.class).memberNodes("g" + i);
            boolean all = true;
            boolean reach = true;
            for (int k = 0; k < 3; k++) {
                NodeId r = NodeId.ofName("r" + Math.floorMod(i + k, pairs));
                all &= members.contains(r);
                reach &= stack.router().nextHop(r, RoutingMetric.LATENCY) != null;
            }
            known += all ? 1 : 0;
            routed += reach ? 1 : 0;
        }
        if (routed == senders && known == senders) {
            return "yes";
        }
        StringBuilder why = new StringBuilder("NO: " + routed + " of " + senders + " senders route to their members, "
                + known + " know all three;");
        for (String n : List.of("s0", "a", "b")) {
            var stack = net.engine(n);
            var router = stack.router();
            why.append(' ').append(n).append(": ").append(router.database().size()).append(" origins held, ")
                    .append(router.limitedAdvertisements()).append(" limited, ").append(router.rejectedAdvertisements())
                    .append(" rejected, ").append(router.evictedOrigins()).append(" evicted, ")
                    .append(router.unacknowledged()).append(" unacked, ").append(router.recomputations())
                    .append(" recomputations; to r1: ");
            for (RoutingMetric m : RoutingMetric.values()) {
                why.append(m).append(' ').append(router.nextHop(NodeId.ofName("r1"), m)).append(", ");
            }
            why.append("to a: ").append(router.nextHop(NodeId.ofName("a"), RoutingMetric.LATENCY)).append(';');
            for (DropReason r : DropReason.values()) {
                if (stack.counters().drops(r) > 0) {
                    why.append(' ').append(r).append('=').append(stack.counters().drops(r));
                }
            }
        }
        return why.toString();
    }
}
