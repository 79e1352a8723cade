package net.hopwise.examples.layered;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.examples.layered.LayeredScenarios.Protocol;
import net.hopwise.examples.layered.LayeredScenarios.Row;
import net.hopwise.examples.layered.LayeredScenarios.Share;

/**
 * Prints the layered-multicast figures of our simulator beside the thesis's (Puangpronpitag 2003,
 * via the digest): the heterogeneous-receiver experiment (ERA Exp. I generalised to three
 * bottlenecks) and ERA Exp. III (one session beside one TCP Reno flow on a 400 Kbit/s DropTail
 * bottleneck, both start orders), for ERA as specified, ERA with loss events, and PLM without fair
 * queuing. Means over seeds with 95% t-intervals.
 *
 * <p>Arguments: {@code --seeds n} (default 5), {@code --seconds s} (default 120), {@code --only
 * list} (comma-separated sections: het, late, halving, tcp, tcp1m; default all), {@code --protocols
 * list} (default all), {@code --layers thesis|fine} (the heterogeneous section's layering).
 */
public final class LayeredExperiment {
    private static final long[] BOTTLENECKS = {300_000, 1_000_000, 10_000_000};
    /** The protocols of every section: all by default, {@code --protocols ERA,ERA_PROMPT} picks. */
    private static Protocol[] protocols = Protocol.values();
    /** The heterogeneous section's layers: the thesis's 100 x 20 Kbit/s, or {@code --layers fine}. */
    private static net.hopwise.multicast.layered.LayerRates layers = LayeredScenarios.LAYERS;

    private LayeredExperiment() {
    }

    public static void main(String[] args) {
        int seeds = 5;
        int seconds = 120;
        java.util.Set<String> only = java.util.Set.of("het", "late", "halving", "tcp", "tcp1m");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--only" -> only = java.util.Set.of(args[i + 1].split(","));
                case "--layers" -> layers = switch (args[i + 1]) {
                    case "fine" -> LayeredScenarios.FINE_LAYERS;
                    case "thesis" -> LayeredScenarios.LAYERS;
                    default -> throw new IllegalArgumentException("--layers thesis or fine, got " + args[i + 1]);
                };
                case "--protocols" -> protocols = java.util.Arrays.stream(args[i + 1].split(",")).map(Protocol::valueOf)
                        .toArray(Protocol[]::new);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (only.contains("het")) {
            heterogeneous(seeds, seconds);
        }
        if (only.contains("late")) {
            late(seeds, seconds);
        }
        if (only.contains("halving")) {
            halving(seeds, seconds);
        }
        if (only.contains("tcp")) {
            tcp(seeds, seconds, 10_000_000);
        }
        if (only.contains("tcp1m")) {
            tcp(seeds, seconds, 1_000_000);
        }
    }

    private static void heterogeneous(int seeds, int seconds) {
        System.out.printf("Heterogeneous receivers: " + layers.count() + " layers (" + (layers == LayeredScenarios.LAYERS
                ? "the thesis's 20 Kbit/s each" : "20 Kbit/s base, then 10 Kbit/s") + "), 512 B, RAI 1 s, DropTail 2 x BDP, %d s, %d seeds%n",
                seconds, seeds);
        System.out.println("| protocol | bottleneck | level (layers) expected / reached | settle after join (s) | throughput (Kbit/s) | E | PLR |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Protocol p : protocols) {
            List<List<Row>> runs = new ArrayList<>();
            for (int s = 1; s <= seeds; s++) {
                runs.add(LayeredScenarios.heterogeneous(p, s, BOTTLENECKS, seconds, layers));
            }
            for (int b = 0; b < BOTTLENECKS.length; b++) {
                int at = b;
                Row first = runs.get(0).get(b);
                long reached = runs.stream().filter(r -> r.get(at).finalLevel() == r.get(at).expectedLevel()).count();
                System.out.printf("| %s | %d Kbit/s | %d / %d of %d runs | %s | %s | %s | %s |%n", p, BOTTLENECKS[b] / 1000,
                        first.expectedLevel() + 1, reached, seeds,
                        ci(runs, r -> r.get(at).settleSeconds(), 1), ci(runs, r -> r.get(at).throughput() / 1000, 1),
                        ci(runs, r -> r.get(at).efficiency(), 3), ci(runs, r -> r.get(at).lossRate(), 4));
            }
        }
        System.out.println("Thesis (ERA Exp. I, 300 Kbit/s): converges in 2 s, 271.93 +- 1.42 Kbit/s, E 0.90 +- 0.03, PLR 0.");
        System.out.println();
    }

    private static void late(int seeds, int seconds) {
        System.out.printf("Late joiners: 4 receivers behind 400 Kbit/s 20 ms, joining at 3, 3, 20, 40 s; %d s, %d seeds%n", seconds, seeds);
        System.out.println("| protocol | receiver | joined (s) | at 19 layers in the end | settle after join (s) | PLR |");
        System.out.println("|---|---|---|---|---|---|");
        for (Protocol p : protocols) {
            List<List<LayeredScenarios.Joiner>> runs = new ArrayList<>();
            for (int s = 1; s <= seeds; s++) {
                runs.add(LayeredScenarios.lateJoiners(p, s, seconds));
            }
            for (int k = 0; k < 4; k++) {
                int at = k;
                long reached = runs.stream().filter(r -> r.get(at).finalLevel() == 18).count();
                System.out.printf("| %s | R%d | %s | %d of %d | %s | %s |%n", p, k + 1, ci(runs, r -> r.get(at).joinSeconds(), 1),
                        reached, seeds, ci(runs, r -> r.get(at).settleSeconds(), 1), ci(runs, r -> r.get(at).lossRate(), 4));
            }
        }
        System.out.println("Thesis (ERA Exp. V): all at '20 layers', about 400 Kbit/s; late joiners align within about 1-3 s.");
        System.out.println();
    }

    private static void halving(int seeds, int seconds) {
        System.out.printf("Halving: 1 Mbit/s 10 ms bottleneck, a 500 Kbit/s CBR flow from 20 s; %d s, %d seeds%n", seconds, seeds);
        System.out.println("| protocol | before (Kbit/s) | after (Kbit/s) | reaction (s) | peak PLR (1 s) | PLR |");
        System.out.println("|---|---|---|---|---|---|");
        for (Protocol p : protocols) {
            List<LayeredScenarios.Halving> runs = new ArrayList<>();
            for (int s = 1; s <= seeds; s++) {
                runs.add(LayeredScenarios.halving(p, s, seconds));
            }
            // Each seed's worst second: the goal is on every run, not on the mean.
            System.out.println("worst second per seed (loss rate, and when from the cross traffic's start), " + p + ": "
                    + runs.stream().map(h -> h.peakLossRate() == 0 ? "0" : String.format("%.4f@%+.0fs", h.peakLossRate(),
                            h.peakSecond())).toList());
            System.out.printf("| %s | %s | %s | %s | %s | %s |%n", p, ci(runs, h -> h.before() / 1000, 1),
                    ci(runs, h -> h.after() / 1000, 1), ci(runs, LayeredScenarios.Halving::reactionSeconds, 2),
                    ci(runs, LayeredScenarios.Halving::peakLossRate, 4), ci(runs, LayeredScenarios.Halving::lossRate, 4));
        }
        System.out.println("Thesis (ERA Exp. II): about 1 Mbit/s in 3 s, adapts within 1 s, PLR 0-0.05; goal: peak PLR < 0.01.");
        System.out.println();
    }

    private static void tcp(int seeds, int seconds, long edge) {
        System.out.printf("One session and one TCP Reno flow, 400 Kbit/s 20 ms bottleneck, exterior links %d Mbit/s 5 ms,"
                + " DropTail 2 x BDP, %d s, last half, %d seeds%n", edge / 1_000_000, seconds, seeds);
        System.out.println("| protocol | first | multicast (Kbit/s) | TCP (Kbit/s) | F = multicast/TCP | Jain | multicast PLR"
                + " | equation's l | TCP's loss events | l giving TCP's rate | TCP srtt (s) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (Protocol p : protocols) {
            for (boolean tcpFirst : new boolean[] {false, true}) {
                List<Share> runs = new ArrayList<>();
                for (int s = 1; s <= seeds; s++) {
                    runs.add(LayeredScenarios.withTcp(p, s, 400_000, tcpFirst, seconds, edge));
                }
                System.out.printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", p, tcpFirst ? "TCP" : "multicast",
                        ci(runs, r -> r.multicast() / 1000, 1), ci(runs, r -> r.tcp() / 1000, 1),
                        ci(runs, Share::friendliness, 2), ci(runs, Share::jain, 3), ci(runs, Share::lossRate, 4),
                        ci(runs, Share::equationLoss, 4), ci(runs, Share::tcpEventRate, 4), ci(runs, Share::tcpImpliedLoss, 4),
                        ci(runs, Share::tcpRttSeconds, 3));
            }
        }
        System.out.println("Thesis: ERA 196.4 +- 1.7, TCP 176 +- 0.7, F 'about 0.9' (196.4/176 = 1.12) in either order;"
                + " PLM without FQ (Ch. 4 Exp. III, 300 Kbit/s, 2 TCP): F 19.");
        System.out.println();
    }

    private static <T> String ci(List<T> runs, java.util.function.ToDoubleFunction<T> f, int decimals) {
        double[] v = runs.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).toArray();
        if (v.length == 0) {
            return "n/a";
        }
        double mean = java.util.Arrays.stream(v).average().orElse(0);
        double var = java.util.Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / Math.max(1, v.length - 1);
        double half = v.length < 2 ? 0 : tQuantile(v.length - 1) * Math.sqrt(var / v.length);
        return String.format("%." + decimals + "f +- %." + decimals + "f", mean, half);
    }

    /** t(0.975, df), from the table, for the 95% intervals the thesis used. */
    private static double tQuantile(int df) {
        double[] t = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
            2.131, 2.120, 2.110, 2.101, 2.093};
        return df <= t.length ? t[df - 1] : 1.96;
    }

}
