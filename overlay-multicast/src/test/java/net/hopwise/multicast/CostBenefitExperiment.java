package net.hopwise.multicast;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Prints the thesis's Cost-Benefit scenarios beside its figures. Run from the repository root:
 * {@code ./mvnw -q -pl overlay-multicast -am test-compile exec:exec -Dexec.executable=java
 * -Dexec.classpathScope=test -Dexec.args="-cp %classpath net.hopwise.multicast.CostBenefitExperiment s1
 * --seconds 120 --seeds 3"}; {@code s4 --pairs 800 --senders 5,100,800} runs S4 at a size.
 */
public final class CostBenefitExperiment {
    private CostBenefitExperiment() {}

    public static void main(String[] args) {
        String scenario = args.length > 0 ? args[0] : "s1";
        int seconds = 120;
        int seeds = 1;
        int pairs = 800;
        String senders = "5,100,200,400,800";
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                case "--pairs" -> pairs = Integer.parseInt(args[i + 1]);
                case "--senders" -> senders = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (!List.of("s1", "s2", "s3", "s4").contains(scenario)) {
            throw new IllegalArgumentException("unknown scenario " + scenario + " (s1, s2, s3, s4)");
        }
        if (scenario.equals("s4")) {
            s4(seconds, seeds, pairs, senders);
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
        System.out.printf(Locale.ROOT, "%-5s %-7s %12s %12s %14s %10s %s%n", "seed", "class", "wire Mbit/s",
                "thesis", "payload Mbit/s", "spread %", "peak buffers (packets)");
        for (long seed = 1; seed <= seeds; seed++) {
            long t0 = System.nanoTime();
            CostBenefitScenarios.S1Result r = CostBenefitScenarios.s1(seed, Duration.ofSeconds(20),
                    Duration.ofSeconds(seconds));
            print(seed, r.acfg(), 1.977, r.peakBuffers().toString());
            print(seed, r.cdg(), 0.992, String.format(Locale.ROOT, "(%.1f s of CPU)", (System.nanoTime() - t0) / 1e9));
        }
    }

    /** S4 with {@code pairs} sender and receiver nodes and each listed number of senders (at most pairs). */
    private static void s4(int seconds, int seeds, int pairs, String senders) {
        System.out.printf(Locale.ROOT, "S4, %d pairs (%d nodes), %d s measured after 10 s; thesis (800 pairs): aggregate"
                + " 1.979 Mbit/s, peak A-B buffer under 170 packets at 800 senders%n", pairs, 2 * pairs + 2, seconds);
        System.out.printf(Locale.ROOT, "%-5s %8s %16s %22s %s%n", "seed", "senders", "aggregate Mbit/s",
                "peak A-B buffer (pkts)", "(CPU s)");
        for (String n : senders.split(",")) {
            int k = Math.min(pairs, Integer.parseInt(n.trim()));
            for (long seed = 1; seed <= seeds; seed++) {
                CostBenefitScenarios.S4Result r = CostBenefitScenarios.s4(seed, pairs, k, Duration.ofSeconds(10),
                        Duration.ofSeconds(seconds));
                System.out.printf(Locale.ROOT, "%-5d %8d %16.3f %22d %.1f%n", seed, k, r.aggregateMbps(), r.peakBuffer(),
                        r.cpuSeconds());
            }
        }
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
        System.out.printf(Locale.ROOT, "%-5s %-7s %12s %12s %14s %10s %s%n", "seed", "class", "wire Mbit/s",
                "thesis", "payload Mbit/s", "spread %", "peak buffers (packets)");
        for (long seed = 1; seed <= seeds; seed++) {
            CostBenefitScenarios.S1Result r = CostBenefitScenarios.s2(seed, Duration.ofSeconds(20),
                    Duration.ofSeconds(seconds));
            print(seed, r.acfg(), 0.9973, r.peakBuffers().toString());
            print(seed, r.cdg(), 0.9976, String.format(Locale.ROOT, "E-G carried %.3f Mbit/s", r.egMbps()));
        }
    }

    private static void print(long seed, CostBenefitScenarios.ClassRate c, double thesis, String tail) {
        System.out.printf(Locale.ROOT, "%-5d %-7s %12.3f %12.3f %14.3f %10.1f %s%n", seed, c.name(), c.wireMbps(),
                thesis, c.payloadMbps(), c.spreadPercent(), tail);
    }
}
