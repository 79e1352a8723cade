package net.hopwise.examples.layered;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongFunction;
import java.util.stream.LongStream;
import net.hopwise.examples.layered.Bench.Proto;

/**
 * The digest's benchmark table B1-B11 (section 4.3) and a heterogeneous-round-trip experiment, on
 * the simulator's virtual time: each experiment with the thesis's settings, for every protocol the
 * thesis ran there and ERA, means over seeds with 95% t-intervals beside the thesis's figures.
 * Seeds run in parallel inside one JVM (the simulator is deterministic per seed, so the figures do
 * not depend on how many threads ran them).
 *
 * <p>Arguments: {@code --seeds n} (default 20), {@code --threads n} (default 2), {@code --only
 * list} (comma-separated: B1,...,B11,HRTT; default all), {@code --sessions list} (B4's n, default
 * 2,4,8,16), {@code --protocols list} (every experiment's rows, instead of its own).
 */
public final class BenchmarkTable {
    private final int seeds;
    private final ForkJoinPool pool;

    private BenchmarkTable(int seeds, int threads) {
        this.seeds = seeds;
        this.pool = new ForkJoinPool(threads);
    }

    /** {@code --protocols}: the rows of every experiment instead of its own list. */
    private static List<Proto> override;

    public static void main(String[] args) throws Exception {
        int seeds = 20;
        int threads = 2;
        Set<String> only = null;
        int[] sessions = {2, 4, 8, 16};
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                case "--only" -> only = Set.of(args[i + 1].split(","));
                case "--protocols" -> override = java.util.Arrays.stream(args[i + 1].split(",")).map(Proto::valueOf).toList();
                case "--sessions" -> sessions = java.util.Arrays.stream(args[i + 1].split(",")).mapToInt(Integer::parseInt)
                        .toArray();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        BenchmarkTable t = new BenchmarkTable(seeds, threads);
        long began = System.nanoTime();
        List<Proto> ch4 = List.of(Proto.PLM_FQ, Proto.PLM, Proto.FLID_DL, Proto.ERA);
        if (only == null || only.contains("B1")) {
            t.experiment("B1: Ch. 4 Exp. I, 1 Mbit/s, CBR 500 Kbit/s at 20 s, 250 Kbit/s at 40 s, 80 s",
                    "Thesis: PLM (FQ) conv 3 s, reaction about 1 s, PLR 0, 697 +- 4.8 Kbit/s, E 0.94 +- 0.01; FLID-DL conv about"
                            + " 11 s, reaction about 3 s, PLR about 5%, 583 +- 9.4 Kbit/s, E 0.79 +- 0.02, oscillating 15/16 then 16/17"
                            + " layers. Goal: E >= 0.94, PLR about 0, reaction <= 1 s on DropTail.",
                    List.of(Proto.PLM_FQ, Proto.PLM, Proto.FLID_DL, Proto.ERA, Proto.RLM), "", p -> s -> ChapterFourScenarios.b1(p, s));
        }
        for (String id : List.of("B2", "B3")) {
            if (only == null || only.contains(id)) {
                String thesis = id.equals("B2")
                        ? "Thesis (Kbit/s, TCP1/TCP2/multicast, F): case 1 PLM 98/98/96 F 0.98, FLID-DL 98/98/87 F 0.90; case 2"
                                + " PLM 98/101/99 F 0.99, FLID-DL 71/80/95 F 1.3; case 3 PLM 3432/3432/2902 F 0.8 (0.85), FLID-DL"
                                + " 1483/1367/5837 F 4.1. Goal: F in [0.8, 1.25] on DropTail."
                        : "Thesis, PLM on DropTail: case 1 as with FQ; case 2 15/12/255 F 19; case 3 2177/3105/4357 F 1.65.";
                List<Proto> protos = id.equals("B2") ? ch4 : List.of(Proto.PLM, Proto.ERA, Proto.ERA_EVENTS);
                for (int kase = 1; kase <= 3; kase++) {
                    if (id.equals("B3") && kase == 1) {
                        continue;
                    }
                    int k = kase;
                    t.experiment(id + ": Ch. 4 Exp. " + (id.equals("B2") ? "II" : "III") + " case " + kase
                            + ", 2 TCP + 1 multicast, 200 s, last 100 s", kase == 3 ? thesis : null, protos, "case " + kase,
                            p -> s -> ChapterFourScenarios.b2(p, k, s));
                }
            }
        }
        if (only == null || only.contains("B4")) {
            for (int n : sessions) {
                t.experiment("B4: Ch. 4 Exp. IV, n = " + n + " sessions, " + 300 * n + " Kbit/s, last 50 s of 100 s",
                        n == sessions[sessions.length - 1]
                                ? "Thesis (n = 2/4/8/16): E PLM 0.92/0.88/0.91/0.93, FLID-DL 0.92/0.98/0.98/0.98; PLR PLM 0,"
                                        + " FLID-DL 16/11/12/10%; Q PLM 0.99/0.96/0.98/0.98, FLID-DL 0.99/0.99/0.99/0.99; I PLM"
                                        + " 1.00/0.99/1.00/1.00, FLID-DL 0.99/0.90/0.91/0.84. Goal: E >= 0.93, I >= 0.99, PLR about 0."
                                : null,
                        List.of(Proto.PLM_FQ, Proto.FLID_DL, Proto.ERA), "n = " + n, p -> s -> ChapterFourScenarios.b4(p, n, s));
            }
        }
        List<Proto> ch6 = List.of(Proto.ERA, Proto.ERA_EVENTS, Proto.PLM, Proto.FLID_DL);
        if (only == null || only.contains("B5")) {
            t.experiment("B5: ERA Exp. I, 300 Kbit/s, 2 receivers, 80 s",
                    "Thesis ERA: conv 2 s, 271.93 +- 1.42 Kbit/s, E 0.90 +- 0.03, PLR 0. Goal: E > 0.9, conv <= 2 s.",
                    List.of(Proto.ERA, Proto.PLM, Proto.FLID_DL, Proto.RLM), "", p -> s -> ChapterSixScenarios.b5(p, s));
        }
        if (only == null || only.contains("B6")) {
            t.experiment("B6: ERA Exp. II, 1 Mbit/s, halved by 500 Kbit/s CBR at 20 s, 80 s",
                    "Thesis ERA: about 1 Mbit/s in about 3 s, reaction within 1 s, PLR 0-0.05. Goal: peak PLR < 0.01.",
                    ch6, "", p -> s -> ChapterSixScenarios.b6(p, s));
        }
        if (only == null || only.contains("B7")) {
            for (long edge : new long[] {10_000_000, 1_000_000}) {
                for (boolean tcpFirst : new boolean[] {false, true}) {
                    t.experiment("B7: ERA Exp. III, 1 session + 1 TCP, 400 Kbit/s, exterior " + edge / 1_000_000 + " Mbit/s, "
                            + (tcpFirst ? "TCP" : "multicast") + " first, 200 s, last 100 s",
                            edge == 1_000_000 && tcpFirst
                                    ? "Thesis ERA: 196.4 +- 1.7, TCP 176 +- 0.7, 'F about 0.9' (196.4/176 = 1.12) in either"
                                            + " order. Goal: |F - 1| <= 0.1."
                                    : null,
                            ch6, (edge / 1_000_000) + "M " + (tcpFirst ? "tcp" : "mc"),
                            p -> s -> ChapterSixScenarios.b7(p, edge, tcpFirst, s));
                }
            }
            t.experiment("B7': 9 TCP + 1 session, 1 Mbit/s, 200 s, last 100 s",
                    "Thesis: graphs only, 'TCP-friendly'; fair share 100 Kbit/s each.", ch6, "",
                    p -> s -> ChapterSixScenarios.b7many(p, s));
        }
        if (only == null || only.contains("B8")) {
            t.experiment("B8: ERA Exp. IV, 3 sessions, 600 Kbit/s, third at 50 s, 100 s",
                    "Thesis ERA: about 300 Kbit/s each, then about 200 each. Goal: Q >= 0.99.",
                    List.of(Proto.ERA, Proto.ERA_EVENTS, Proto.ERA_RECOMMENDED, Proto.ERA_RECOMMENDED_FQ, Proto.PLM_FQ, Proto.PLM,
                            Proto.FLID_DL), "",
                    p -> s -> ChapterSixScenarios.b8(p, s));
        }
        if (only == null || only.contains("B9")) {
            t.experiment("B9: ERA Exp. V, 4 receivers, 400 Kbit/s, joining at 3, 3, 20, 40 s, 80 s",
                    "Thesis ERA: all at '20 layers', about 400 Kbit/s, late joiners align quickly. Goal: alignment <= 1 RAI (1 s).",
                    List.of(Proto.ERA, Proto.PLM, Proto.FLID_DL, Proto.RLM), "", p -> s -> ChapterSixScenarios.b9(p, s));
        }
        if (only == null || only.contains("B10")) {
            t.experiment("B10: WEBRC's scenario, 320 Kbit/s 30 ms, 80 s",
                    "Thesis ERA: PLR 0 almost all the time, worst 0.03; converges faster than WEBRC. Goal: max PLR < 0.03.",
                    List.of(Proto.ERA, Proto.PLM, Proto.FLID_DL), "", p -> s -> ChapterSixScenarios.b10(p, s));
        }
        if (only == null || only.contains("B11")) {
            for (int at = 0; at < 3; at++) {
                int a = at;
                t.experiment("B11: packet-pair validation, 32 Kbit/s on link " + (at + 1) + " of R0-R3, 60 s",
                        at == 2 ? "Thesis: 32 Kbit/s, within 2% with the bottleneck on the first or last link." : null,
                        List.of(Proto.ERA), "link " + (at + 1), p -> s -> ChapterSixScenarios.b11(a, s));
            }
        }
        if (only == null || only.contains("HRTT")) {
            t.experiment("HRTT (not in the thesis): 3 sessions at 20/80/200 ms RTT + 3 TCP of the same RTTs, 1.2 Mbit/s, 200 s,"
                            + " last 100 s",
                    "Fair: 200 Kbit/s each; TCP's share falls with its RTT, so F per RTT is the friendliness at that RTT.",
                    List.of(Proto.ERA, Proto.ERA_RTT, Proto.ERA_EVENTS, Proto.PLM, Proto.FLID_DL), "",
                    p -> s -> ChapterSixScenarios.heterogeneousRtt(p, s));
        }
        System.out.printf("All of it took %.0f s of wall time with %d threads.%n", (System.nanoTime() - began) / 1e9, threads);
        t.pool.shutdown();
    }

    private void experiment(String title, String thesis, List<Proto> protos, String label,
            java.util.function.Function<Proto, LongFunction<Map<String, Double>>> scenario) throws Exception {
        System.out.println("### " + title + Sweep.describe() + " (" + seeds + " seeds, mean +- 95% t-interval)");
        boolean header = false;
        for (Proto p : override != null ? override : protos) {
            long began = System.nanoTime();
            LongFunction<Map<String, Double>> run = scenario.apply(p);
            List<Map<String, Double>> runs = pool.submit(() -> LongStream.rangeClosed(1, seeds).parallel().mapToObj(run)
                    .toList()).get();
            Map<String, List<Double>> byMetric = new LinkedHashMap<>();
            if (Boolean.getBoolean("layered.perseed")) {
                // -Dlayered.perseed=true: every seed's figures, to find the run a mean hides.
                for (int i = 0; i < runs.size(); i++) {
                    System.out.println("seed " + (i + 1) + " " + p + " " + runs.get(i));
                }
            }
            for (Map<String, Double> r : runs) {
                r.forEach((k, v) -> byMetric.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
            }
            if (!header) {
                System.out.println("| case | protocol | " + String.join(" | ", byMetric.keySet()) + " | wall s |");
                System.out.println("|---|---|" + "---|".repeat(byMetric.size()) + "---|");
                header = true;
            }
            StringBuilder row = new StringBuilder("| " + label + " | " + p + " |");
            for (List<Double> v : byMetric.values()) {
                row.append(' ').append(ci(v)).append(" |");
            }
            row.append(String.format(" %.0f |", (System.nanoTime() - began) / 1e9));
            System.out.println(row);
        }
        if (thesis != null) {
            System.out.println(thesis);
        }
        System.out.println();
    }

    /** Mean +- t(0.975, n - 1) s / sqrt(n) over the runs where the metric is defined, with how many when not all. */
    static String ci(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).toArray();
        if (v.length == 0) {
            return "n/a";
        }
        double mean = java.util.Arrays.stream(v).average().orElse(0);
        double var = java.util.Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / Math.max(1, v.length - 1);
        double half = v.length < 2 ? 0 : tQuantile(v.length - 1) * Math.sqrt(var / v.length);
        int decimals = Math.abs(mean) >= 100 ? 1 : Math.abs(mean) >= 10 ? 2 : 3;
        if (Math.abs(mean) < 0.1 && mean != 0) {
            decimals = 4;
        }
        String s = String.format("%." + decimals + "f +- %." + decimals + "f", mean, half);
        return v.length < values.size() ? s + " (" + v.length + " of " + values.size() + ")" : s;
    }

    /** t(0.975, df) from the table, for the 95% intervals the thesis used (t(0.975, 19) = 2.093). */
    static double tQuantile(int df) {
        double[] t = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
            2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045};
        return df <= t.length ? t[df - 1] : 1.96;
    }
}
