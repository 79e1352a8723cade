package net.hopwise.multicast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionConfig;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.OverlaySessionFlow;
import net.hopwise.overlay.sim.SimNetwork;

/**
 * A unicast reliable session and multicast senders sharing one bottleneck, on the simulator with the
 * unchanged module: the chain A-B-C, A-B 10 Mbit/s and B-C 1 Mbit/s (10 ms each); {@code senders}
 * greedy multicast clients on A sending to a group whose only member is C (their tree is the session's
 * path), and one session A to C offered 8 Mbit/s of 1000-byte messages. Under the thesis's rules every
 * client pays the same price per packet on the same links, so with unicast Cost-Benefit on the session
 * is one client among {@code senders + 1} and gets its share; off, it answers only its own windows.
 *
 * <p>{@code main} prints the table: {@code UnicastCostBenefitScenario [--seconds 60] [--seeds 3]}.
 */
final class UnicastCostBenefitScenario {
    static final long MBIT = 1_000_000L;
    static final int PAYLOAD = CostBenefitScenarios.PAYLOAD;

    /**
     * Payload rates over the measured span, in Mbit/s.
     *
     * @param senders each multicast client's payload rate
     * @param session the session's delivered payload rate
     * @param metered whether the session end was a Cost-Benefit client
     * @param sessionPackets packets the session sent for the first time over the whole run
     * @param bought packets its meter sold it over the whole run (0 unmetered)
     */
    record Result(double[] senders, double session, boolean metered, long sessionPackets, long bought) {
        double multicastTotal() {
            double sum = 0;
            for (double s : senders) {
                sum += s;
            }
            return sum;
        }

        double total() {
            return multicastTotal() + session;
        }

        /** The session's rate over the mean multicast client's. */
        double sessionShare() {
            return session / (multicastTotal() / senders.length);
        }
    }

    private UnicastCostBenefitScenario() {}

    static Result run(long seed, int senders, boolean unicast, Duration warmup, Duration measured) {
        MulticastModule module = CostBenefitScenarios.module().withUnicastCostBenefit(unicast);
        // Each node its own session settings: the interim session wiring tells nodes apart by them.
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(module).session(SessionConfig.builder().build()))) {
            for (String n : List.of("a", "b", "c")) {
                net.node(n);
            }
            net.link("a", "b", CostBenefitScenarios.link(10 * MBIT, 10));
            net.link("b", "c", CostBenefitScenarios.link(MBIT, 10));
            net.start();
            net.runFor(Duration.ofSeconds(10));
            net.nodeNamed("c").interact(s -> s.module(Multicast.class).join("g", 9, m -> { }));
            net.runFor(Duration.ofSeconds(2));
            List<CostBenefitScenarios.GreedyClient> clients = CostBenefitScenarios.clients(net, "a", "g", senders);
            OverlaySessionFlow session = new OverlaySessionFlow(net, 1, "a", "c", 7, PAYLOAD, RoutingMetric.LATENCY,
                    new DelayStatistics());
            // 8 Mbit/s offered: far above the bottleneck, so the session is as greedy as the clients.
            session.start(net.now(), 1_000_000L, Long.MAX_VALUE);
            net.runFor(warmup);
            long[] start = CostBenefitScenarios.counts(clients);
            long delivered = session.delivered();
            net.runFor(measured);
            double seconds = measured.toNanos() / 1e9;
            long[] end = CostBenefitScenarios.counts(clients);
            double[] rates = new double[senders];
            for (int i = 0; i < senders; i++) {
                long packets = end[2 * i] - start[2 * i];
                rates[i] = packets * PAYLOAD * 8 / seconds / 1e6;
            }
            double sessionRate = (session.delivered() - delivered) * PAYLOAD * 8 / seconds / 1e6;
            long[] bought = {0};
            net.nodeNamed("a").interact(s -> {
                for (UnicastClientStatistics u : s.module(Multicast.class).unicastClients()) {
                    bought[0] += u.packets();
                }
            });
            long[] sent = new long[1];
            net.nodeNamed("a").interact(s -> sent[0] = session.session().sender().packetsSent()
                    - session.session().sender().retransmissions());
            return new Result(rates, sessionRate, session.session().metered(), sent[0], bought[0]);
        }
    }

    public static void main(String[] args) {
        int seconds = 60;
        int seeds = 3;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.println("senders unicast-CB seed  session  mean-sender  total  (payload Mbit/s; B-C 1 Mbit/s)");
        for (int senders : new int[] {1, 4}) {
            for (boolean on : new boolean[] {true, false}) {
                List<String> rows = new ArrayList<>();
                for (int seed = 1; seed <= seeds; seed++) {
                    Result r = run(seed, senders, on, Duration.ofSeconds(20), Duration.ofSeconds(seconds));
                    rows.add(String.format(Locale.ROOT, "%7d %10s %4d  %7.3f  %11.3f  %5.3f", senders, on ? "on" : "off",
                            seed, r.session(), r.multicastTotal() / senders, r.total()));
                }
                rows.forEach(System.out::println);
            }
        }
    }
}
