package net.hopwise.multicast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.sim.SimNetwork;

/**
 * Traces one Cost-Benefit run on the simulator, interval by interval: each flow-controlled link's
 * average and peak buffer, advertised cost, packets in flight and window, and each group of clients'
 * packets bought, salary periods and purses. For finding where a scenario's capacity goes.
 *
 * <p>Run (a simulator experiment: idle priority, one at a time): {@code java -cp <test class path>
 * net.hopwise.multicast.CostBenefitTrace s3|rand [--seconds n] [--every ms] [--seed n] [--streams n]}.
 */
public final class CostBenefitTrace {
    private CostBenefitTrace() {}

    public static void main(String[] args) {
        String scenario = args.length > 0 ? args[0] : "s3";
        int seconds = 60;
        int every = 1000;
        long seed = 1;
        int streams = 100;
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--every" -> every = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--streams" -> streams = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        switch (scenario) {
            case "s3" -> s3(seed, seconds, every);
            case "rand" -> rand(seed, seconds, every, streams);
            case "s2" -> s2(seed, seconds, every);
            default -> throw new IllegalArgumentException("unknown scenario " + scenario + " (s2, s3, rand)");
        }
    }

    /** S3 with every client started together after 2 s, traced for {@code seconds}. */
    private static void s3(long seed, int seconds, int every) {
        List<String> chain = List.of("a", "b", "c", "d", "e", "f");
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(CostBenefitScenarios.module()))) {
            chain.forEach(net::node);
            for (int i = 0; i + 1 < chain.size(); i++) {
                net.link(chain.get(i), chain.get(i + 1), CostBenefitScenarios.link(2 * CostBenefitScenarios.MBIT, 10));
            }
            net.start();
            net.runFor(Duration.ofSeconds(20));
            net.nodeNamed("f").interact(s -> s.module(Multicast.class).join("a-f", 9, m -> { }));
            for (int i = 0; i + 1 < chain.size(); i++) {
                String to = chain.get(i + 1);
                String group = chain.get(i) + "-" + to;
                net.nodeNamed(to).interact(s -> s.module(Multicast.class).join(group, 9, m -> { }));
            }
            net.runFor(Duration.ofSeconds(2));
            List<String> names = new ArrayList<>(List.of("a-f"));
            List<List<CostBenefitScenarios.GreedyClient>> flows = new ArrayList<>();
            flows.add(CostBenefitScenarios.clients(net, "a", "a-f", 1));
            for (int i = 0; i + 1 < chain.size(); i++) {
                names.add(chain.get(i) + "-" + chain.get(i + 1));
                flows.add(CostBenefitScenarios.clients(net, chain.get(i), names.get(names.size() - 1), 1));
            }
            List<String[]> links = new ArrayList<>();
            for (int i = 0; i + 1 < chain.size(); i++) {
                links.add(new String[] {chain.get(i), chain.get(i + 1)});
            }
            trace(net, seconds, every, names, flows, links);
        }
    }

    /** S2: both classes of 20 clients through E-G at 2 Mbit/s. */
    private static void s2(long seed, int seconds, int every) {
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(CostBenefitScenarios.module()))) {
            for (String n : List.of("a", "b", "c", "d", "e", "f", "g")) {
                net.node(n);
            }
            long m = CostBenefitScenarios.MBIT;
            net.link("a", "b", CostBenefitScenarios.link(10 * m, 15));
            net.link("b", "c", CostBenefitScenarios.link(10 * m, 10));
            net.link("b", "d", CostBenefitScenarios.link(10 * m, 10));
            net.link("b", "e", CostBenefitScenarios.link(10 * m, 10));
            net.link("e", "f", CostBenefitScenarios.link(10 * m, 5));
            net.link("e", "g", CostBenefitScenarios.link(2 * m, 5));
            net.start();
            net.runFor(Duration.ofSeconds(20));
            for (String member : List.of("c", "f", "g")) {
                net.nodeNamed(member).interact(st -> st.module(Multicast.class).join("acfg", 9, msg -> { }));
            }
            for (String member : List.of("d", "g")) {
                net.nodeNamed(member).interact(st -> st.module(Multicast.class).join("cdg", 9, msg -> { }));
            }
            net.runFor(Duration.ofSeconds(2));
            List<List<CostBenefitScenarios.GreedyClient>> flows = List.of(
                    CostBenefitScenarios.clients(net, "a", "acfg", 20), CostBenefitScenarios.clients(net, "c", "cdg", 20));
            List<String[]> links = new ArrayList<>();
            links.add(new String[] {"e", "g"});
            trace(net, seconds, every, List.of("acfg", "cdg"), flows, links);
        }
    }

    /** The randomisation experiment's link with {@code streams} clients on A. */
    private static void rand(long seed, int seconds, int every, int streams) {
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(CostBenefitScenarios.module()))) {
            net.node("a");
            net.node("b");
            net.link("a", "b", CostBenefitScenarios.link(2 * CostBenefitScenarios.MBIT, 10));
            net.start();
            net.runFor(Duration.ofSeconds(5));
            net.nodeNamed("b").interact(st -> {
                for (int i = 0; i < streams; i++) {
                    st.module(Multicast.class).join("stream" + i, 9, msg -> { });
                }
            });
            net.runFor(Duration.ofSeconds(2));
            List<CostBenefitScenarios.GreedyClient> clients = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                clients.addAll(CostBenefitScenarios.clients(net, "a", "stream" + i, 1));
            }
            List<String[]> links = new ArrayList<>();
            links.add(new String[] {"a", "b"});
            trace(net, seconds, every, List.of("streams"), List.of(clients), links);
        }
    }

    private static void trace(SimNetwork net, int seconds, int every, List<String> names,
            List<List<CostBenefitScenarios.GreedyClient>> flows, List<String[]> links) {
        List<long[]> last = new ArrayList<>();
        for (List<CostBenefitScenarios.GreedyClient> f : flows) {
            last.add(CostBenefitScenarios.counts(f));
        }
        int[] peak = new int[links.size()];
        for (long t = 0; t < seconds * 1000L; t += every) {
            Arrays.fill(peak, 0);
            double[] avg = new double[links.size()];
            LinkBuffer[] at = new LinkBuffer[links.size()];
            for (int k = 0; k < every / 50; k++) {
                net.runFor(Duration.ofMillis(50));
                for (int i = 0; i < links.size(); i++) {
                    NodeId to = NodeId.ofName(links.get(i)[1]);
                    for (LinkBuffer lb : net.engine(links.get(i)[0]).module(Multicast.class).linkBuffers()) {
                        if (lb.neighbour().equals(to)) {
                            peak[i] = Math.max(peak[i], lb.peak());
                            avg[i] += lb.average() / (every / 50);
                            at[i] = lb;
                        }
                    }
                }
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%6.2f", (t + every) / 1000.0));
            for (int i = 0; i < links.size(); i++) {
                LinkBuffer lb = at[i];
                line.append(String.format(Locale.ROOT, " | %s-%s avg %5.1f pk %3d $%5.2f fl %2d w %4.1f",
                        links.get(i)[0], links.get(i)[1], avg[i], peak[i], lb == null ? 0 : lb.cost(),
                        lb == null ? 0 : lb.inFlight(), lb == null ? 0 : lb.window()));
            }
            for (int f = 0; f < flows.size(); f++) {
                long[] now = CostBenefitScenarios.counts(flows.get(f));
                long packets = 0;
                for (int i = 0; i < now.length; i += 2) {
                    packets += now[i] - last.get(f)[i];
                }
                last.set(f, now);
                double[] periods = flows.get(f).stream()
                        .mapToDouble(c -> c.sender.statistics().salaryPeriodNanos() / 1e6).sorted().toArray();
                double tokens = flows.get(f).stream().mapToDouble(c -> c.sender.statistics().tokens()).average()
                        .orElse(0);
                double cost = flows.get(f).stream().mapToDouble(c -> c.sender.statistics().lastPacketCost())
                        .average().orElse(0);
                line.append(String.format(Locale.ROOT, " || %s %.3f Mb/s T[ms] %.0f/%.0f/%.0f $%.1f last $%.2f",
                        names.get(f), packets * 1094 * 8 / (every / 1000.0) / 1e6, periods[0],
                        periods[periods.length / 2], periods[periods.length - 1], tokens, cost));
            }
            System.out.println(line);
        }
    }
}
