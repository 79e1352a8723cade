package net.hopwise.multicast;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Prints the thesis's Cost-Benefit scenarios beside its figures. Run from the repository root:
 * {@code ./mvnw -q -pl overlay-multicast -am test-compile exec:exec -Dexec.executable=java
 * -Dexec.classpathScope=test -Dexec.args="-cp %classpath net.hopwise.multicast.CostBenefitExperiment s1
 * --seconds 120 --seeds 3"} ({@code --every-slow-update}: every node floods its costs every T_max, idle or
 * not, the thesis's literal rule); S4 is {@link CostBenefitS4}.
 */
public final class CostBenefitExperiment {
    private CostBenefitExperiment() {}

    public static void main(String[] args) {
        String scenario = args.length > 0 ? args[0] : "s1";
        int seconds = 120;
        int seeds = 1;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--seeds" -> seeds = Integer.parseInt(args[++i]);
                case "--every-slow-update" -> {
                    CostBenefitScenarios.useConfig(CostBenefitConfig.builder().quietWhenIdle(false).build());
                    System.out.println("every node floods its costs every T_max (the thesis's literal rule)");
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (!List.of("s1", "s2", "s2-variant", "s3").contains(scenario)) {
            throw new IllegalArgumentException("unknown scenario " + scenario + " (s1, s2, s2-variant, s3; S4 is CostBenefitS4)");
        }
        if (scenario.equals("s2-variant")) {
            s2Variant(seconds, seeds);
            return;
        }
        if (scenario.equals("s3")) {
            s3(seconds, seeds);
            return;
        }
        if (scenario.equals("s2")) {
            s2(seconds, seeds);
            return;
        }
        System.out.printf(Locale.ROOT, "S1, %d s measured after 20 s, thesis's parameters (Danilov 2004, section 4.5)%n",
                seconds);
        System.out.println("rates count each packet as the wire carries it, 1094 bytes for 1000 of payload; 'across'"
                + " is what crossed the class's bottleneck (delivered behind it), 'sent' what its clients bought");
        header();
        for (long seed = 1; seed <= seeds; seed++) {
            long t0 = System.nanoTime();
            CostBenefitScenarios.S1Result r = CostBenefitScenarios.s1(seed, Duration.ofSeconds(20),
                    Duration.ofSeconds(seconds));
            print(seed, r.acfg(), r.receivedMbps().get("acfg@f"), 1.977, String.format(Locale.ROOT,
                    "E-F: wire %.4f, cost updates riding %.1f kbit/s, %.1f other datagrams/s; peaks %s", r.efMbps(),
                    r.updateKbps().get("e-f"), r.efControlPerSecond(), r.peakBuffers()));
            print(seed, r.cdg(), r.receivedMbps().get("cdg@d"), 0.992, String.format(Locale.ROOT,
                    "B-D: wire %.4f, cost updates riding %.1f kbit/s, %.1f other datagrams/s (%.1f s of CPU)",
                    r.bdMbps(), r.updateKbps().get("b-d"), r.bdControlPerSecond(), (System.nanoTime() - t0) / 1e9));
        }
    }

    private static void header() {
        System.out.printf(Locale.ROOT, "%-5s %-7s %8s %8s %8s %9s %8s %s%n", "seed", "class", "across", "thesis", "sent",
                "payload", "spread%", "the bottleneck");
    }

    /** S3 with {@code seconds} between the starts (the thesis's 150), each phase measured over its second half. */
    private static void s3(int seconds, int seeds) {
        System.out.printf(Locale.ROOT, "S3 (chain of five 2 Mbit/s links), a client starting every %d s%n", seconds);
        System.out.printf(Locale.ROOT, "%-5s %-28s %8s %s%n", "seed", "started", "total", "A-F, A-B, B-C, C-D, D-E, E-F");
        String[] names = {"A-F", "+A-B", "+B-C", "+C-D", "+D-E", "+E-F"};
        for (long seed = 1; seed <= seeds; seed++) {
            List<double[]> phases = CostBenefitScenarios.s3(seed, Duration.ofSeconds(seconds));
            for (int p = 0; p < phases.size(); p++) {
                double total = 0;
                StringBuilder each = new StringBuilder();
                for (double r : phases.get(p)) {
                    total += r;
                    each.append(String.format(Locale.ROOT, "%6.3f", r));
                }
                System.out.printf(Locale.ROOT, "%-5d %-28s %8.3f %s%n", seed, names[p], total, each);
            }
            System.out.println("      thesis with all started: total 9.677 of 10 Mbit/s, A-F about 0");
        }
    }

    private static void s2(int seconds, int seeds) {
        System.out.printf(Locale.ROOT, "S2 (E-G 2 Mbit/s shared), %d s measured after 20 s, thesis's parameters%n",
                seconds);
        header();
        for (long seed = 1; seed <= seeds; seed++) {
            CostBenefitScenarios.S1Result r = CostBenefitScenarios.s2(seed, Duration.ofSeconds(20),
                    Duration.ofSeconds(seconds));
            print(seed, r.acfg(), r.receivedMbps().get("acfg@g"), 0.9973, "peaks " + r.peakBuffers());
            print(seed, r.cdg(), r.receivedMbps().get("cdg@g"), 0.9976, String.format(Locale.ROOT,
                    "E-G: wire %.4f, cost updates riding %.1f kbit/s", r.egMbps(), r.updateKbps().get("e-g")));
        }
    }

    /** S2's variant with {@code seconds} per phase (the thesis's 200): S_cdg late, then E-G halved. */
    private static void s2Variant(int seconds, int seeds) {
        System.out.printf(Locale.ROOT, "S2 variant: S_acfg alone on E-G (2 Mbit/s), S_cdg from %d s, E-G at 1 Mbit/s"
                + " from %d s; rates delivered at G, each packet as the wire carries it%n", seconds, 2 * seconds);
        System.out.printf(Locale.ROOT, "%-5s %-22s %-22s %-22s %-16s %-16s %s%n", "seed", "alone: acfg",
                "both: acfg / cdg", "halved: acfg / cdg", "response to cdg", "response to 1M", "peak E-G per phase");
        for (long seed = 1; seed <= seeds; seed++) {
            CostBenefitScenarios.S2Variant r = CostBenefitScenarios.s2Variant(seed, seconds);
            double[] p0 = r.settled(0);
            double[] p1 = r.settled(1);
            double[] p2 = r.settled(2);
            System.out.printf(Locale.ROOT, "%-5d %-22s %-22s %-22s %-16s %-16s %s%n", seed,
                    String.format(Locale.ROOT, "%.4f", p0[0]),
                    String.format(Locale.ROOT, "%.4f / %.4f", p1[0], p1[1]),
                    String.format(Locale.ROOT, "%.4f / %.4f", p2[0], p2[1]),
                    r.response(1, 1.0) + " s", r.response(2, 0.5) + " s", java.util.Arrays.toString(r.peaks()));
        }
        System.out.println("      thesis: fair shares, S_acfg adjusted to the new flow in under 5 s, no spike in E-G's"
                + " buffer at either change (below 150 packets)");
    }

    private static void print(long seed, CostBenefitScenarios.ClassRate c, double across, double thesis, String tail) {
        System.out.printf(Locale.ROOT, "%-5d %-7s %8.4f %8.4f %8.4f %9.4f %8.2f %s%n", seed, c.name(), across, thesis,
                c.wireMbps(), c.payloadMbps(), c.spreadPercent(), tail);
    }
}
