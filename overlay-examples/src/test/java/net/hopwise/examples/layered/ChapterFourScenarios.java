package net.hopwise.examples.layered;

import static net.hopwise.examples.layered.Bench.SECOND;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.hopwise.examples.layered.Bench.Multicast;
import net.hopwise.examples.layered.Bench.Proto;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.tcp.TcpFlow;

/**
 * The thesis's chapter 4 experiments (PLM against FLID-DL; the digest's B1-B4) with the thesis's
 * bandwidths, delays, start times, durations and measurement windows, for any protocol. Layers are
 * chapter 4's (12 Kbit/s x 1.3, 26 of them) for every protocol, ERA included. Each scenario returns
 * its metrics by name, in the order the table prints them.
 */
final class ChapterFourScenarios {
    static final long CBR_FLOW = 0x4342_5200L;

    private ChapterFourScenarios() {
    }

    /**
     * B1, Exp. I: one session over a 1 Mbit/s 10 ms bottleneck (exterior links 10 Mbit/s 10 ms),
     * the sink joining at 3 s, a CBR flow across the bottleneck at 500 Kbit/s from 20 s and
     * 250 Kbit/s from 40 s, to 80 s: 1000, then 500, then 750 Kbit/s available. E divides by the
     * time-average of what was available over the receiver's whole seconds.
     */
    static Map<String, Double> b1(Proto p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            for (String n : List.of("S", "C", "R0", "R1", "E", "K")) {
                net.plainNode(n);
            }
            double rtt = 0.06;
            net.link("S", "R0", Bench.link(p, 10_000_000, 10, rtt, 2));
            net.link("C", "R0", Bench.link(p, 10_000_000, 10, rtt, 2));
            net.link("R0", "R1", Bench.link(p, 1_000_000, 10, rtt, 2));
            net.link("R1", "E", Bench.link(p, 10_000_000, 10, rtt, 2));
            net.link("R1", "K", Bench.link(p, 10_000_000, 10, rtt, 2));
            net.start();
            Bench.backgroundIfAsked(net, seed);
            long start = Simulator.START_NANOS;
            Multicast m = new Multicast(net, p, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"), Bench.MULTIPLICATIVE,
                    start, 0, seed, rtt);
            long join = start + 3 * SECOND + random.nextLong(SECOND / 2);
            LayeredSession.Receiver r = m.receiver("E", join, seed * 1000);
            Bench.cbr(net, new String[] {"C", "R0", "R1", "K"}, CBR_FLOW, start + 20 * SECOND, 500_000,
                    start + 40 * SECOND, 250_000);
            long end = start + 80 * SECOND;
            net.runUntil(end);
            ReceiverStats s = r.stats;
            Map<String, Double> out = new LinkedHashMap<>();
            int full = m.optimalLevel(1_000_000);
            int most = m.optimalLevel(750_000);
            out.put("conv s", seconds(s.firstLevel(l -> l >= full - 1 && l <= full + 1, join, start + 20 * SECOND), join));
            out.put("react@20 s", seconds(s.firstLevel(l -> m.rateOf(l) <= 500_000, start + 20 * SECOND, end),
                    start + 20 * SECOND));
            out.put("react@40 s", seconds(s.firstLevel(l -> l >= most - 1, start + 40 * SECOND, end), start + 40 * SECOND));
            long from = start + 4 * SECOND;
            double thr = s.throughput(from, end);
            double available = (16 * 1_000_000.0 + 20 * 500_000 + 40 * 750_000) / 76;
            out.put("Kbit/s", thr / 1000);
            out.put("E", thr / available);
            out.put("PLR", s.lossRate());
            out.put("changes/min", s.changesAfter(start + 20 * SECOND) / 1.0);
            // The grafts and prunes that crossed a link, a second, over the run (FLID-DL's dynamic layering
            // joins new groups every slot, the cost the thesis holds against it).
            out.put("control/s", m.session.controlMessages / ((end - start) / 1e9));
            return out;
        }
    }

    /**
     * B2 (and B3 with PLM on DropTail), Exp. II: two TCP Reno flows and one session, bottleneck
     * 20 ms, exterior links 5 ms; TCP1 at 0 s, the session at 20 s, TCP2 at 60 s, to 200 s;
     * averages over the last 100 s. Case 1: 300 Kbit/s bottleneck, 100 Kbit/s exterior links; 2:
     * 300 Kbit/s and 10 Mbit/s; 3: 10 Mbit/s and 10 Mbit/s.
     */
    static Map<String, Double> b2(Proto p, int kase, long seed) {
        long bottleneck = kase == 3 ? 10_000_000 : 300_000;
        long edge = kase == 1 ? 100_000 : 10_000_000;
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            for (String n : List.of("T1", "T2", "S", "R0", "R1", "D1", "D2", "E")) {
                net.plainNode(n);
            }
            double rtt = 0.06;
            for (String n : List.of("T1", "T2", "S")) {
                net.link(n, "R0", Bench.link(p, edge, 5, rtt, 3));
            }
            net.link("R0", "R1", Bench.link(p, bottleneck, 20, rtt, 3));
            for (String n : List.of("D1", "D2", "E")) {
                net.link("R1", n, Bench.link(p, edge, 5, rtt, 3));
            }
            net.start();
            Bench.backgroundIfAsked(net, seed);
            long start = Simulator.START_NANOS;
            TcpFlow tcp1 = Bench.tcp(net, 1, new String[] {"T1", "R0", "R1", "D1"}, start + random.nextLong(SECOND / 10));
            TcpFlow tcp2 = Bench.tcp(net, 2, new String[] {"T2", "R0", "R1", "D2"},
                    start + 60 * SECOND + random.nextLong(SECOND / 10));
            long mcStart = start + 20 * SECOND + random.nextLong(SECOND / 10);
            Multicast m = new Multicast(net, p, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"), Bench.MULTIPLICATIVE,
                    mcStart, 0, seed, rtt);
            LayeredSession.Receiver r = m.receiver("E", mcStart, seed * 1000);
            long end = start + 200 * SECOND;
            long from = start + 100 * SECOND;
            long[] a1 = new long[1];
            long[] a2 = new long[1];
            Bench.mark(net, tcp1, from, a1);
            Bench.mark(net, tcp2, from, a2);
            net.runUntil(end);
            double t1 = Bench.tcpRate(a1[0], tcp1.receiver().delivered(), from, end);
            double t2 = Bench.tcpRate(a2[0], tcp2.receiver().delivered(), from, end);
            double mc = r.stats.throughput(from, end);
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("TCP1", t1 / 1000);
            out.put("TCP2", t2 / 1000);
            out.put("multicast", mc / 1000);
            out.put("F", mc / ((t1 + t2) / 2));
            out.put("PLR", r.stats.lossRate());
            return out;
        }
    }

    /**
     * B4, Exp. IV: {@code n} sessions of one source and one sink each over a 300n Kbit/s 30 ms
     * bottleneck (exterior links 10 Mbit/s 10 ms), starting at random in [0, 10] s, to 100 s;
     * metrics over the last 50 s. E is the mean throughput over the 300 Kbit/s fair share.
     */
    static Map<String, Double> b4(Proto p, int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            net.plainNode("R0");
            net.plainNode("R1");
            double rtt = 0.1;
            long bottleneck = 300_000L * n;
            net.link("R0", "R1", Bench.link(p, bottleneck, 30, rtt, n));
            for (int i = 0; i < n; i++) {
                net.plainNode("S" + i);
                net.plainNode("E" + i);
                net.link("S" + i, "R0", Bench.link(p, 10_000_000, 10, rtt, n));
                net.link("R1", "E" + i, Bench.link(p, 10_000_000, 10, rtt, n));
            }
            net.start();
            Bench.backgroundIfAsked(net, seed);
            long start = Simulator.START_NANOS;
            List<LayeredSession.Receiver> receivers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long at = start + random.nextLong(10 * SECOND);
                Map<String, String> parents = new HashMap<>(Map.of("R0", "S" + i, "R1", "R0", "E" + i, "R1"));
                Multicast m = new Multicast(net, p, "S" + i, parents, Bench.MULTIPLICATIVE, at, i, seed * 100 + i, rtt);
                receivers.add(m.receiver("E" + i, at, seed * 1000 + i));
            }
            long end = start + 100 * SECOND;
            long from = start + 50 * SECOND;
            net.runUntil(end);
            double[] thr = receivers.stream().mapToDouble(r -> r.stats.throughput(from, end)).toArray();
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("E", java.util.Arrays.stream(thr).average().orElse(0) / 300_000);
            out.put("PLR", receivers.stream().mapToDouble(r -> r.stats.lossRate()).average().orElse(0));
            out.put("Q", jain(thr));
            out.put("I", minOverMax(thr));
            return out;
        }
    }

    static double seconds(long at, long since) {
        return at < 0 ? Double.NaN : (at - since) / 1e9;
    }

    /** Jain's equality index (Eq. 4-1). */
    static double jain(double... x) {
        double sum = 0;
        double squares = 0;
        for (double v : x) {
            sum += v;
            squares += v * v;
        }
        return squares == 0 ? Double.NaN : sum * sum / (x.length * squares);
    }

    /** Widmer's intra-protocol index I = min / max (Eq. 4-2). */
    static double minOverMax(double... x) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (double v : x) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return max == 0 ? Double.NaN : min / max;
    }
}
