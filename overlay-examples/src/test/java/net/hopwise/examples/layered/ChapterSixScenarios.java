package net.hopwise.examples.layered;

import static net.hopwise.examples.layered.Bench.SECOND;
import static net.hopwise.examples.layered.ChapterFourScenarios.jain;
import static net.hopwise.examples.layered.ChapterFourScenarios.minOverMax;
import static net.hopwise.examples.layered.ChapterFourScenarios.seconds;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.hopwise.examples.layered.Bench.Multicast;
import net.hopwise.examples.layered.Bench.Proto;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.tcp.TcpFlow;

/**
 * The thesis's chapter 6 experiments (ERA; the digest's B5-B10) and one it never ran, receivers of
 * different round trips beside TCP flows of the same round trips. Layers are chapter 6's (100 of
 * 20 Kbit/s) for ERA, PLM and RLM, FLID-DL's own for FLID-DL. Exterior links the thesis does not
 * give are 10 Mbit/s 5 ms.
 */
final class ChapterSixScenarios {
    private ChapterSixScenarios() {
    }

    private static LayerRates layers(Proto p) {
        return p == Proto.FLID_DL ? Bench.MULTIPLICATIVE : p == Proto.ERA_FINE || p == Proto.ERA_FAIR_FINE || p == Proto.ERA_RECOMMENDED_FINE ? Bench.FINE : Bench.EQUAL;
    }

    /**
     * A chain: source S, then R0, then the bottleneck to R1, then one sink per entry of {@code sinks}
     * (or cross-traffic ends); exterior links 10 Mbit/s 5 ms unless {@code edgeBps}.
     */
    private static SimNetwork dumbbell(long seed, Proto p, long bottleneck, double delayMillis, long edgeBps, double rtt,
            int flows, List<String> left, List<String> right) {
        SimNetwork net = new SimNetwork(seed);
        net.plainNode("R0");
        net.plainNode("R1");
        net.link("R0", "R1", Bench.link(p, bottleneck, delayMillis, rtt, flows));
        for (String n : left) {
            net.plainNode(n);
            net.link(n, "R0", Bench.link(p, edgeBps, 5, rtt, flows));
        }
        for (String n : right) {
            net.plainNode(n);
            net.link("R1", n, Bench.link(p, edgeBps, 5, rtt, flows));
        }
        net.start();
        Bench.backgroundIfAsked(net, seed);
        return net;
    }

    /**
     * B5, ERA Exp. I: one source and two receivers behind a 300 Kbit/s 20 ms bottleneck (input link
     * 10 Mbit/s), the receivers joining at about 3 s, to 80 s. Convergence: into the band of one
     * level around the highest level below the capacity; throughput from the first whole second
     * after joining.
     */
    static Map<String, Double> b5(Proto p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.06;
        try (SimNetwork net = dumbbell(seed, p, 300_000, 20, 10_000_000, rtt, 1, List.of("S"), List.of("E1", "E2"))) {
            long start = Simulator.START_NANOS;
            Multicast m = new Multicast(net, p, "S", Map.of("R0", "S", "R1", "R0", "E1", "R1", "E2", "R1"), layers(p),
                    start, 0, seed, rtt);
            List<LayeredSession.Receiver> rs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                rs.add(m.receiver("E" + (i + 1), start + 3 * SECOND + random.nextLong(SECOND), seed * 1000 + i));
            }
            long end = start + 80 * SECOND;
            net.runUntil(end);
            int opt = m.optimalLevel(300_000);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("conv s", rs.stream().mapToDouble(r -> seconds(r.stats.firstLevel(l -> l >= opt - 1 && l <= opt + 1, r.stats.joinedAt,
                    end), r.stats.joinedAt)).average().orElse(Double.NaN));
            double thr = rs.stream().mapToDouble(r -> r.stats.throughput(start + 5 * SECOND, end)).average().orElse(0);
            out.put("Kbit/s", thr / 1000);
            out.put("E", thr / 300_000);
            out.put("PLR", rs.stream().mapToDouble(r -> r.stats.lossRate()).average().orElse(0));
            out.put("peak PLR", rs.stream().mapToDouble(r -> r.stats.peakLossRate(r.stats.joinedAt + SECOND, end)).max()
                    .orElse(0));
            out.put("changes/min", rs.stream().mapToDouble(r -> r.stats.changesAfter(start + 20 * SECOND) / 1.0).average()
                    .orElse(0));
            return out;
        }
    }

    /**
     * B6, ERA Exp. II as the digest infers it: a 1 Mbit/s 10 ms bottleneck, the receiver joining at
     * about 3 s, a 500 Kbit/s CBR flow across the bottleneck from 20 s, to 80 s. Peak PLR is the
     * worst whole second after the first second of the receiver.
     */
    static Map<String, Double> b6(Proto p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.04;
        try (SimNetwork net = dumbbell(seed, p, 1_000_000, 10, 10_000_000, rtt, 2, List.of("S", "C"), List.of("E", "K"))) {
            long start = Simulator.START_NANOS;
            Multicast m = new Multicast(net, p, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"), layers(p), start, 0, seed,
                    rtt);
            long join = start + 3 * SECOND + random.nextLong(SECOND / 2);
            LayeredSession.Receiver r = m.receiver("E", join, seed * 1000);
            long halved = start + 20 * SECOND;
            Bench.cbr(net, new String[] {"C", "R0", "R1", "K"}, ChapterFourScenarios.CBR_FLOW, halved, 500_000);
            long end = start + 80 * SECOND;
            net.runUntil(end);
            int full = m.optimalLevel(1_000_000);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("conv s", seconds(r.stats.firstLevel(l -> l >= full - 1 && l <= full + 1, join, halved), join));
            out.put("before", r.stats.throughput(halved - 10 * SECOND, halved) / 1000);
            out.put("after", r.stats.throughput(halved + 5 * SECOND, end) / 1000);
            out.put("react s", seconds(r.stats.firstLevel(l -> m.rateOf(l) <= 500_000, halved, end), halved));
            out.put("peak PLR", r.stats.peakLossRate(join + SECOND, end));
            out.put("PLR", r.stats.lossRate());
            return out;
        }
    }

    /**
     * B7, ERA Exp. III: one session and one TCP Reno flow over a 400 Kbit/s 20 ms bottleneck,
     * exterior links of {@code edgeBps} and 5 ms (the text says 10 Mbit/s, the trace's run 1
     * Mbit/s); one starting at 0 s, the other at 20 s, the sink 3 s after its source; to 200 s,
     * averages over the last 100 s.
     */
    static Map<String, Double> b7(Proto p, long edgeBps, boolean tcpFirst, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.06;
        try (SimNetwork net = dumbbell(seed, p, 400_000, 20, edgeBps, rtt, 2, List.of("S", "T"), List.of("E", "D"))) {
            long start = Simulator.START_NANOS;
            long mcAt = start + (tcpFirst ? 20 * SECOND : 0) + random.nextLong(SECOND / 2);
            long tcpAt = start + (tcpFirst ? 0 : 20 * SECOND) + random.nextLong(SECOND / 2);
            Multicast m = new Multicast(net, p, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"), layers(p), mcAt, 0, seed, rtt);
            LayeredSession.Receiver r = m.receiver("E", mcAt + 3 * SECOND, seed * 1000);
            TcpFlow tcp = Bench.tcp(net, 1, new String[] {"T", "R0", "R1", "D"}, tcpAt);
            long end = start + 200 * SECOND;
            long from = start + 100 * SECOND;
            long[] at = new long[1];
            Bench.mark(net, tcp, from, at);
            net.runUntil(end);
            double t = Bench.tcpRate(at[0], tcp.receiver().delivered(), from, end);
            double mc = r.stats.throughput(from, end);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("multicast", mc / 1000);
            out.put("TCP", t / 1000);
            out.put("F", mc / t);
            out.put("Jain", jain(mc, t));
            out.put("PLR", r.stats.lossRate());
            return out;
        }
    }

    /**
     * B7's 90:10 variant: nine TCP Reno flows and one session over a 1 Mbit/s 20 ms bottleneck,
     * exterior links 10 Mbit/s 5 ms, everything starting at random in [0, 5] s, to 200 s, the last
     * 100 s; the fair share is 100 Kbit/s each.
     */
    static Map<String, Double> b7many(Proto p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.06;
        List<String> left = new ArrayList<>(List.of("S"));
        List<String> right = new ArrayList<>(List.of("E"));
        for (int i = 1; i <= 9; i++) {
            left.add("T" + i);
            right.add("D" + i);
        }
        try (SimNetwork net = dumbbell(seed, p, 1_000_000, 20, 10_000_000, rtt, 10, left, right)) {
            long start = Simulator.START_NANOS;
            long mcAt = start + random.nextLong(5 * SECOND);
            Multicast m = new Multicast(net, p, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"), layers(p), mcAt, 0, seed, rtt);
            LayeredSession.Receiver r = m.receiver("E", mcAt, seed * 1000);
            long end = start + 200 * SECOND;
            long from = start + 100 * SECOND;
            List<TcpFlow> flows = new ArrayList<>();
            List<long[]> marks = new ArrayList<>();
            for (int i = 1; i <= 9; i++) {
                TcpFlow f = Bench.tcp(net, i, new String[] {"T" + i, "R0", "R1", "D" + i}, start + random.nextLong(5 * SECOND));
                long[] at = new long[1];
                Bench.mark(net, f, from, at);
                flows.add(f);
                marks.add(at);
            }
            long[] tcpAt = new long[2];
            net.at(from, now -> {
                for (TcpFlow f : flows) {
                    tcpAt[0] += f.sender().segmentsSent();
                    tcpAt[1] += f.sender().fastRetransmits() + f.sender().timeouts();
                }
            });
            double[] rttSum = new double[2];
            for (long t = from; t < end; t += SECOND / 10) {
                net.at(t, now -> {
                    for (TcpFlow f : flows) {
                        rttSum[0] += f.sender().smoothedRttNanos() / 1e9;
                        rttSum[1]++;
                    }
                });
            }
            net.runUntil(end);
            long sent = -tcpAt[0];
            long events = -tcpAt[1];
            for (TcpFlow f : flows) {
                sent += f.sender().segmentsSent();
                events += f.sender().fastRetransmits() + f.sender().timeouts();
            }
            double[] all = new double[10];
            double tcpSum = 0;
            for (int i = 0; i < 9; i++) {
                all[i] = Bench.tcpRate(marks.get(i)[0], flows.get(i).receiver().delivered(), from, end);
                tcpSum += all[i];
            }
            all[9] = r.stats.throughput(from, end);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("multicast", all[9] / 1000);
            out.put("TCP mean", tcpSum / 9 / 1000);
            out.put("F", all[9] / (tcpSum / 9));
            out.put("Jain (10)", jain(all));
            out.put("PLR", r.stats.lossRate());
            // What each saw of the loss: the receiver's equation (mean over its decisions) and TCP's
            // loss events (fast retransmits and timeouts per segment sent), and TCP's round trip.
            out.put("equation's l", r.controller.equationLoss().stream().filter(d -> d[0] >= from).mapToDouble(d -> d[1])
                    .average().orElse(Double.NaN));
            out.put("TCP's loss events", sent == 0 ? Double.NaN : (double) events / sent);
            out.put("TCP srtt (s)", rttSum[0] / Math.max(1, rttSum[1]));
            return out;
        }
    }

    /**
     * B8, ERA Exp. IV: three sessions over a 600 Kbit/s 20 ms bottleneck, sessions 1 and 2
     * starting at random in [0, 10] s, session 3 at 50 s, to 100 s; shares over [40, 50) s and
     * [75, 100) s.
     */
    static Map<String, Double> b8(Proto p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.06;
        try (SimNetwork net = dumbbell(seed, p, 600_000, 20, 10_000_000, rtt, 3, List.of("S0", "S1", "S2"),
                List.of("E0", "E1", "E2"))) {
            long start = Simulator.START_NANOS;
            List<LayeredSession.Receiver> rs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                long at = start + (i < 2 ? random.nextLong(10 * SECOND) : 50 * SECOND);
                Multicast m = new Multicast(net, p, "S" + i, new HashMap<>(Map.of("R0", "S" + i, "R1", "R0", "E" + i, "R1")),
                        layers(p), at, i, seed * 100 + i, rtt);
                rs.add(m.receiver("E" + i, at, seed * 1000 + i));
            }
            long end = start + 100 * SECOND;
            net.runUntil(end);
            double[] before = {rs.get(0).stats.throughput(start + 40 * SECOND, start + 50 * SECOND),
                rs.get(1).stats.throughput(start + 40 * SECOND, start + 50 * SECOND)};
            double[] after = rs.stream().mapToDouble(r -> r.stats.throughput(start + 75 * SECOND, end)).toArray();
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("before (each)", (before[0] + before[1]) / 2000);
            out.put("Q before", jain(before));
            out.put("after (each)", (after[0] + after[1] + after[2]) / 3000);
            out.put("Q after", jain(after));
            out.put("I after", minOverMax(after));
            out.put("PLR", rs.stream().mapToDouble(r -> r.stats.lossRate()).average().orElse(0));
            return out;
        }
    }

    /**
     * B9, ERA Exp. V: four receivers behind a 400 Kbit/s 20 ms bottleneck (exterior links 1 Mbit/s
     * 5 ms), R1 and R2 joining at 3 s, R3 at 20 s, R4 at 40 s, to 80 s. Alignment: from a late
     * joiner's join until it holds the level R1 holds at that instant, for good.
     */
    static Map<String, Double> b9(Proto p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.06;
        try (SimNetwork net = dumbbell(seed, p, 400_000, 20, 1_000_000, rtt, 1, List.of("S"),
                List.of("E1", "E2", "E3", "E4"))) {
            long start = Simulator.START_NANOS;
            Map<String, String> parents = new HashMap<>(Map.of("R0", "S", "R1", "R0"));
            for (int i = 1; i <= 4; i++) {
                parents.put("E" + i, "R1");
            }
            Multicast m = new Multicast(net, p, "S", parents, layers(p), start, 0, seed, rtt);
            long[] joins = {3, 3, 20, 40};
            List<LayeredSession.Receiver> rs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                rs.add(m.receiver("E" + (i + 1), start + joins[i] * SECOND + random.nextLong(SECOND / 2), seed * 1000 + i));
            }
            long end = start + 80 * SECOND;
            net.runUntil(end);
            int opt = m.optimalLevel(400_000);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("R1 conv s", seconds(rs.get(0).stats.firstLevel(l -> l >= opt - 1 && l <= opt + 1, rs.get(0).stats.joinedAt, end),
                    rs.get(0).stats.joinedAt));
            for (int k = 2; k < 4; k++) {
                ReceiverStats s = rs.get(k).stats;
                out.put("R" + (k + 1) + " align s", seconds(aligned(s, rs.get(0).stats, end), s.joinedAt));
            }
            out.put("Kbit/s", rs.stream().mapToDouble(r -> r.stats.throughput(start + 45 * SECOND, end)).average().orElse(0)
                    / 1000);
            out.put("PLR", rs.stream().mapToDouble(r -> r.stats.lossRate()).average().orElse(0));
            return out;
        }
    }

    /** The first instant after {@code s} joined from which it holds {@code reference}'s level at every change of either, -1 if never. */
    private static long aligned(ReceiverStats s, ReceiverStats reference, long end) {
        long since = -1;
        for (long t = s.joinedAt; t < end; t += SECOND / 100) {
            boolean same = s.levelAt(t) == reference.levelAt(t);
            if (same && since < 0) {
                since = t;
            } else if (!same) {
                since = -1;
            }
        }
        return since;
    }

    /**
     * B10, ERA against WEBRC's scenario (its paper's section 5.1.2): one source, one sink, a
     * 320 Kbit/s 30 ms bottleneck, the sink at about 3 s, to 80 s.
     */
    static Map<String, Double> b10(Proto p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rtt = 0.08;
        try (SimNetwork net = dumbbell(seed, p, 320_000, 30, 10_000_000, rtt, 1, List.of("S"), List.of("E"))) {
            long start = Simulator.START_NANOS;
            Multicast m = new Multicast(net, p, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"), layers(p), start, 0, seed, rtt);
            long join = start + 3 * SECOND + random.nextLong(SECOND / 2);
            LayeredSession.Receiver r = m.receiver("E", join, seed * 1000);
            long end = start + 80 * SECOND;
            net.runUntil(end);
            int opt = m.optimalLevel(320_000);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("conv s", seconds(r.stats.firstLevel(l -> l >= opt - 1 && l <= opt + 1, join, end), join));
            double thr = r.stats.throughput(start + 5 * SECOND, end);
            out.put("Kbit/s", thr / 1000);
            out.put("E", thr / 320_000);
            out.put("peak PLR", r.stats.peakLossRate(join + SECOND, end));
            out.put("PLR", r.stats.lossRate());
            out.put("changes/min", r.stats.changesAfter(start + 20 * SECOND) / 1.0);
            return out;
        }
    }

    /**
     * B11, the packet-pair validation of Appendix B: a chain S, R0, R1, R2, R3, E of 10 Mbit/s
     * 5 ms links but one of 32 Kbit/s, the first, middle or last of R0-R3 ({@code at} 0, 1, 2);
     * a receiver on the 20 Kbit/s base layer collects every pair's estimate for 60 s, through the
     * overlay relays of the session (data forwarded on receipt by each node).
     */
    static Map<String, Double> b11(int at, long seed) {
        try (SimNetwork net = new SimNetwork(seed)) {
            List<String> chain = List.of("S", "R0", "R1", "R2", "R3", "E");
            for (String n : chain) {
                net.plainNode(n);
            }
            Map<String, String> parents = new HashMap<>();
            for (int i = 1; i < chain.size(); i++) {
                boolean slow = i - 2 == at;
                long bps = slow ? 32_000 : 10_000_000;
                net.link(chain.get(i - 1), chain.get(i), LayeredScenarios.link(bps, 5, LayeredScenarios.twiceBdp(bps, 0.05)));
                parents.put(chain.get(i), chain.get(i - 1));
            }
            net.start();
            long start = Simulator.START_NANOS;
            LayeredSession session = new LayeredSession(net, "S", parents, Bench.EQUAL, LayeredScenarios.cfg(), start, 0, seed);
            PairProbe[] probe = new PairProbe[1];
            session.receiver("E", s -> probe[0] = new PairProbe(s), start + SECOND);
            net.runUntil(start + 61 * SECOND);
            double[] v = probe[0].samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("samples", (double) v.length);
            out.put("median Kbit/s", v[v.length / 2] / 1000);
            out.put("median error", Math.abs(v[v.length / 2] - 32_000) / 32_000);
            out.put("within 2%", java.util.Arrays.stream(v).filter(x -> Math.abs(x - 32_000) <= 640).count() / (double) v.length);
            return out;
        }
    }

    /**
     * Receivers at 20, 80 and 200 ms round trips behind one 1.2 Mbit/s bottleneck, each in its own
     * session, beside one TCP Reno flow of each round trip (six flows, 200 Kbit/s each if fair):
     * sources 2 ms from R0, a 3 ms bottleneck, sinks 5, 35 and 95 ms behind R1; DropTail 2 x BDP at
     * 80 ms; everything starts at random in [0, 5] s; to 200 s, the last 100 s. FLID-DL's simulated
     * round trip is each session's own (2 x its propagation delay).
     */
    static Map<String, Double> heterogeneousRtt(Proto p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] rtts = {20, 80, 200};
        double[] sinkDelay = {5, 35, 95};
        try (SimNetwork net = new SimNetwork(seed)) {
            net.plainNode("R0");
            net.plainNode("R1");
            double qRtt = 0.08;
            net.link("R0", "R1", Bench.link(p, 1_200_000, 3, qRtt, 6));
            for (int k = 0; k < 3; k++) {
                for (String n : List.of("S" + k, "T" + k)) {
                    net.plainNode(n);
                    net.link(n, "R0", Bench.link(p, 10_000_000, 2, qRtt, 6));
                }
                for (String n : List.of("E" + k, "D" + k)) {
                    net.plainNode(n);
                    net.link("R1", n, Bench.link(p, 10_000_000, sinkDelay[k], qRtt, 6));
                }
            }
            net.start();
            Bench.backgroundIfAsked(net, seed);
            long start = Simulator.START_NANOS;
            long end = start + 200 * SECOND;
            long from = start + 100 * SECOND;
            List<LayeredSession.Receiver> rs = new ArrayList<>();
            List<TcpFlow> flows = new ArrayList<>();
            List<long[]> marks = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                long at = start + random.nextLong(5 * SECOND);
                Multicast m = new Multicast(net, p, "S" + k, new HashMap<>(Map.of("R0", "S" + k, "R1", "R0", "E" + k, "R1")),
                        layers(p), at, k, seed * 100 + k, rtts[k] / 1000.0);
                rs.add(m.receiver("E" + k, at, seed * 1000 + k));
                TcpFlow f = Bench.tcp(net, k + 1, new String[] {"T" + k, "R0", "R1", "D" + k}, start + random.nextLong(5 * SECOND));
                long[] mark = new long[1];
                Bench.mark(net, f, from, mark);
                flows.add(f);
                marks.add(mark);
            }
            net.runUntil(end);
            Map<String, Double> out = new LinkedHashMap<>();
            double[] all = new double[6];
            for (int k = 0; k < 3; k++) {
                double mc = rs.get(k).stats.throughput(from, end);
                double t = Bench.tcpRate(marks.get(k)[0], flows.get(k).receiver().delivered(), from, end);
                all[2 * k] = mc;
                all[2 * k + 1] = t;
                out.put("mc " + rtts[k], mc / 1000);
                out.put("TCP " + rtts[k], t / 1000);
                out.put("F " + rtts[k], mc / t);
            }
            out.put("Jain (6)", jain(all));
            out.put("PLR", rs.stream().mapToDouble(r -> r.stats.lossRate()).average().orElse(0));
            return out;
        }
    }

    /** Holds the base layer and keeps every pair's bandwidth estimate. */
    private static final class PairProbe implements LayeredController {
        final List<Double> samples = new ArrayList<>();
        private final net.hopwise.multicast.layered.LayerSubscriber subscriber;
        private int level = -1;
        private long first = -1;
        private long next;

        PairProbe(net.hopwise.multicast.layered.LayerSubscriber subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void join(long now) {
            level = 0;
            subscriber.join(0, now);
        }

        @Override
        public void onAnnouncement(net.hopwise.multicast.layered.SessionAnnouncement a, long now) {
        }

        @Override
        public void onPacket(net.hopwise.multicast.layered.LayeredPacket p, long now) {
            if (p.firstOfBunch()) {
                first = now;
                next = (p.sequence() + 1) & 0xFFFF_FFFFL;
            } else if (first >= 0 && p.sequence() == next && now > first) {
                samples.add(8.0 * Bench.PACKET * 1e9 / (now - first));
                first = -1;
            } else {
                first = -1;
            }
        }

        @Override
        public void onTimer(long now) {
        }

        @Override
        public long nextDeadlineNanos() {
            return Long.MAX_VALUE;
        }

        @Override
        public int level() {
            return level;
        }
    }
}
