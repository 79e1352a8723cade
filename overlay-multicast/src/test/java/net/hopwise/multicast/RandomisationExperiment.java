package net.hopwise.multicast;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.sim.SimNetwork;

/**
 * The randomisation experiment of the thesis (Danilov 2004, section 4.3, figure 4.1) on the simulator,
 * the module unchanged: one 2 Mbit/s link, 100 streams, the largest buffer of the link in each sampling
 * interval with the 1/C_p randomisation and without it. The thesis shows lower buffer peaks with it and
 * gives no numbers. Chosen (the drawing is lost): the link A-B at 10 ms, as S4's; the 100 streams are
 * 100 greedy clients on A each sending to a group of its own whose member is B; the sampling interval
 * is the cost-update period of a busy link (50 ms), where the module reports each link's longest buffer.
 *
 * <p>Run (a simulator experiment: nice 19, one at a time): {@code java -cp <test class path>
 * net.hopwise.multicast.RandomisationExperiment --streams 100 --seconds 60 --seeds 3}. {@code --no-priced-out}
 * runs both arms without the longer salary period of a client priced out of its purse
 * ({@code pricedOutSalaryPeriod} held at {@code maxSalaryPeriod}, every client's period bounded at 250 ms
 * as before that rule): the rule spreads unrandomised clients apart by itself, so without it the
 * randomisation's own effect shows as in the thesis, whose clients have neither bound.
 */
public final class RandomisationExperiment {
    private RandomisationExperiment() {}

    /** One run: the per-interval peaks of the A-B buffer (packets) and the clients' aggregate wire rate. */
    record Result(int[] peaks, double aggregateMbps) {
        int max() {
            return Arrays.stream(peaks).max().orElse(0);
        }

        double mean() {
            return Arrays.stream(peaks).average().orElse(0);
        }

        int percentile(double p) {
            int[] sorted = peaks.clone();
            Arrays.sort(sorted);
            return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
        }
    }

    public static void main(String[] args) {
        int streams = 100;
        int seconds = 60;
        int seeds = 3;
        boolean noPricedOut = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--streams" -> streams = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--seeds" -> seeds = Integer.parseInt(args[++i]);
                case "--no-priced-out" -> noPricedOut = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (--streams n, --seconds n, --seeds n, --no-priced-out)");
            }
        }
        System.out.printf(Locale.ROOT, "Randomisation: one 2 Mbit/s link, %d streams, %d s measured after 20 s; the A-B"
                + " buffer's largest in each 50 ms (packets); thesis: lower peaks with randomisation, no numbers%n"
                + "Salary period: %s%n", streams, seconds, noPricedOut ? "every client's bounded at maxSalaryPeriod (--no-priced-out)"
                : "the module's default (a priced-out client's up to pricedOutSalaryPeriod)");
        System.out.printf(Locale.ROOT, "%-5s %-14s %8s %8s %8s %8s %16s%n", "seed", "randomisation", "max", "p99", "p90",
                "mean", "aggregate Mbit/s");
        for (long seed = 1; seed <= seeds; seed++) {
            for (boolean randomised : List.of(true, false)) {
                Result r = run(seed, streams, randomised, noPricedOut, Duration.ofSeconds(20), Duration.ofSeconds(seconds));
                System.out.printf(Locale.ROOT, "%-5d %-14s %8d %8d %8d %8.1f %16.3f%n", seed, randomised ? "on" : "off",
                        r.max(), r.percentile(0.99), r.percentile(0.90), r.mean(), r.aggregateMbps());
            }
        }
    }

    static Result run(long seed, int streams, boolean randomised, boolean noPricedOut, Duration warmup, Duration measured) {
        CostBenefitConfig.Builder builder = CostBenefitConfig.builder().randomised(randomised);
        if (noPricedOut) {
            builder.pricedOutSalaryPeriod(Duration.ofNanos(CostBenefitConfig.builder().build().maxSalaryPeriodNanos()));
        }
        CostBenefitConfig config = builder.build();
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(CostBenefitScenarios.module(config)))) {
            net.node("a");
            net.node("b");
            net.link("a", "b", CostBenefitScenarios.link(2 * CostBenefitScenarios.MBIT, 10));
            net.start();
            net.runFor(Duration.ofSeconds(5));
            int n = streams;
            net.nodeNamed("b").interact(st -> {
                for (int i = 0; i < n; i++) {
                    st.module(Multicast.class).join("stream" + i, 9, msg -> { });
                }
            });
            net.runFor(Duration.ofSeconds(2));
            List<CostBenefitScenarios.GreedyClient> clients = new java.util.ArrayList<>();
            for (int i = 0; i < streams; i++) {
                clients.addAll(CostBenefitScenarios.clients(net, "a", "stream" + i, 1));
            }
            net.runFor(warmup);
            long[] start = CostBenefitScenarios.counts(clients);
            NodeId b = NodeId.ofName("b");
            int samples = (int) (measured.toMillis() / 50);
            int[] peaks = new int[samples];
            for (int s = 0; s < samples; s++) {
                net.runFor(Duration.ofMillis(50));
                for (LinkBuffer lb : net.engine("a").module(Multicast.class).linkBuffers()) {
                    if (lb.neighbour().equals(b)) {
                        peaks[s] = lb.peak();
                    }
                }
            }
            double rate = CostBenefitScenarios.rate("streams", clients, start, measured.toNanos() / 1e9).wireMbps();
            return new Result(peaks, rate);
        }
    }
}
