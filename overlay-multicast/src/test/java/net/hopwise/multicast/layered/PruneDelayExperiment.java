package net.hopwise.multicast.layered;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;

/**
 * How long a relay goes on forwarding a layered session to a receiver's node after the receiver left,
 * when the link from that node to the relay loses a share of what it carries: the leave's prune (an
 * empty subscription) must get through. A source s, a relay r and the receiver's node m, 5 ms links;
 * per seed the receiver holds layers for 4 s, leaves while r forwards it something (r must within
 * 5 s more), and the time until r stops is read every 5 ms (at most 10 s). Virtual time.
 *
 * <p>Arguments: {@code --loss p} (default 0.1), {@code --seeds n} (default 40).
 */
public final class PruneDelayExperiment {
    private PruneDelayExperiment() {
    }

    public static void main(String[] args) {
        double loss = 0.1;
        int seeds = 40;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--loss" -> loss = Double.parseDouble(args[i + 1]);
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<Long> delays = new ArrayList<>();
        for (long seed = 1; seed <= seeds; seed++) {
            delays.add(pruneDelayMillis(seed, loss));
        }
        delays.sort(null);
        System.out.printf("upstream loss %.2f, %d seeds: prune took effect after median %d ms, 90th percentile %d ms,"
                + " worst %d ms; within 60 ms in %d%n", loss, seeds, delays.get(delays.size() / 2),
                delays.get((int) (delays.size() * 0.9)), delays.get(delays.size() - 1),
                delays.stream().filter(d -> d <= 60).count());
    }

    static long pruneDelayMillis(long seed, double loss) {
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(new MulticastModule()))) {
            for (String n : List.of("s", "r", "m")) {
                net.node(n);
            }
            LinkSpec clean = LinkSpec.builder().delay(Duration.ofMillis(5)).build();
            net.link("s", "r", clean);
            net.link("r", "m", clean, LinkSpec.builder().delay(Duration.ofMillis(5)).loss(new LossModel.Bernoulli(loss)).build());
            net.start();
            net.runFor(Duration.ofSeconds(3));
            LayeredReceiver[] receiver = new LayeredReceiver[1];
            net.nodeNamed("m").interact(stack -> receiver[0] = stack.module(Multicast.class).joinLayered("tv", 5004, x -> { }));
            LayeredSender[] sender = new LayeredSender[1];
            net.nodeNamed("s").interact(stack -> sender[0] = stack.module(Multicast.class)
                    .openLayeredSender("tv", 5004, LayerRates.equal(4, 20_000)));
            net.runFor(Duration.ofSeconds(4));
            int session = sender[0].sessionId();
            // Refreshes go once a second over the lossy link, and a child not heard for 3.5 s loses its
            // layers until its next one arrives: the leave is made while r forwards m something.
            for (int waited = 0; LayeredModuleSimulationTest.forwarded(net, "r", "m", session) < 0; waited++) {
                if (waited >= 50) {
                    throw new IllegalStateException("seed " + seed + ": r forwards m no layer within 5 s");
                }
                net.runFor(Duration.ofMillis(100));
            }
            net.nodeNamed("m").interact(stack -> receiver[0].leave());
            long ms = 0;
            while (LayeredModuleSimulationTest.forwarded(net, "r", "m", session) >= 0 && ms < 10_000) {
                net.runFor(Duration.ofMillis(5));
                ms += 5;
            }
            return ms;
        }
    }
}
