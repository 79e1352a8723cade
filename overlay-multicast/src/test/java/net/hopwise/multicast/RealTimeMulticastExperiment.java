package net.hopwise.multicast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.hopwise.overlay.spi.RealTimeStatistics;

/**
 * Residual loss of real-time multicast at member nodes one and two lossy hops from the source, beside
 * the real-time link's model {@code 2p^2 - 3p^3} per hop (Danilov, section 6.2.1), in the simulator
 * ({@link RealTimeScenario}: 160-byte packets every 10 ms, 5 ms links, 100 ms deadline). Run from the
 * repository root: {@code ./mvnw -q -pl overlay-multicast -am test-compile exec:exec
 * -Dmulticast.exec.skip=false -Dexec.executable=java -Dexec.classpathScope=test -Dexec.args="-cp
 * %classpath net.hopwise.multicast.RealTimeMulticastExperiment --packets 10000 --seeds 3"}.
 */
public final class RealTimeMulticastExperiment {
    private RealTimeMulticastExperiment() {}

    public static void main(String[] args) {
        int packets = 10_000;
        int seeds = 3;
        double[] losses = {0.01, 0.05, 0.10};
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--packets" -> packets = Integer.parseInt(args[i + 1]);
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                case "--losses" -> losses = Arrays.stream(args[i + 1].split(",")).mapToDouble(Double::parseDouble)
                        .toArray();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.printf(Locale.ROOT, "Real-time multicast, %d packets per run, residual loss at members (%%)%n",
                packets);
        System.out.printf(Locale.ROOT, "%-6s %-5s %9s %9s %9s %9s %9s %9s %9s %8s %6s %7s%n", "loss", "seed",
                "1 hop", "2p2-3p3", "2p2-p3", "2 hops", "2p2-3p3", "2p2-p3", "no recov", "recov'd", "late", "CPU s");
        for (double p : losses) {
            double q = RealTimeScenario.model(p);
            double q2 = RealTimeScenario.modelWithNextPacketLosses(p);
            List<Double> one = new ArrayList<>();
            List<Double> two = new ArrayList<>();
            for (long seed = 1; seed <= seeds; seed++) {
                long t0 = System.nanoTime();
                RealTimeScenario.Result r = RealTimeScenario.run(seed, p, packets, 10, 5, Duration.ofMillis(100));
                double lost1 = 0;
                double lost2 = 0;
                long recovered = 0;
                long late = 0;
                for (Map.Entry<String, Integer> m : RealTimeScenario.MEMBERS.entrySet()) {
                    RealTimeStatistics s = r.stats().get(m.getKey());
                    double rate = (double) s.lost() / packets;
                    if (m.getValue() == 1) {
                        lost1 += rate;
                    } else {
                        lost2 += rate / 3;
                    }
                    recovered += s.recovered();
                    late += s.late();
                }
                one.add(lost1);
                two.add(lost2);
                System.out.printf(Locale.ROOT, "%-6.2f %-5d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.1f %8d %6d %7.1f%n",
                        p, seed, 100 * lost1, 100 * q, 100 * q2, 100 * lost2, 100 * twoHops(q), 100 * twoHops(q2),
                        100 * twoHops(p), recovered, late, (System.nanoTime() - t0) / 1e9);
            }
            System.out.printf(Locale.ROOT, "%-6.2f %-5s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f%n", p, "med",
                    100 * median(one), 100 * q, 100 * q2, 100 * median(two), 100 * twoHops(q), 100 * twoHops(q2));
        }
    }

    private static double twoHops(double perLink) {
        return 1 - (1 - perLink) * (1 - perLink);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
