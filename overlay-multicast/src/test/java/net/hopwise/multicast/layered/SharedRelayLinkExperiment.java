package net.hopwise.multicast.layered;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;

/**
 * The thesis's Exp. IV (the digest's B8) on the real module, on virtual time: three layered
 * sessions, each from its own source s0-s2 to its own receiver e0-e2, cross one relay link r to q
 * of 600 Kbit/s; sessions 0 and 1 start at random within the first 10 s, session 2 at 50 s, and each
 * receiver's subscribed rate is averaged over 75-100 s. The link's queue is either the overlay's
 * (relay r paces layered data at 600 Kbit/s per session by deficit round robin,
 * {@link RelayQueueing#fair}, into a 10 Mbit/s link) or the path's (r sends at once into a 600
 * Kbit/s link with a DropTail queue of 50 packets).
 *
 * <p>Arguments: {@code --seeds n} (20), {@code --drop-tail} (the path's queue instead of the
 * overlay's), {@code --floor n} (the receivers' {@link EraConfig.Builder#queueFloorPackets}, 0).
 * Prints each seed's three rates, Jain's index Q and min / max, and packets dropped at the bottleneck.
 */
final class SharedRelayLinkExperiment {
    static final LayerRates LAYERS = LayerRates.equal(30, 20_000);
    static final long BOTTLENECK = 600_000;
    private static final long SECOND = 1_000_000_000L;

    /**
     * @param kbps each session's mean subscribed rate over 75-100 s
     * @param dropped packets the bottleneck dropped over the whole run (the fair queue's, or the link's)
     */
    record Result(double[] kbps, double q, double minOverMax, long dropped) {
    }

    private SharedRelayLinkExperiment() {
    }

    /** The thesis's timeline: the third session at 50 s, rates over 75-100 s. */
    static Result run(long seed, EraConfig receiver, boolean fair) {
        return run(seed, receiver, fair, 50, 100);
    }

    /**
     * @param thirdAt seconds from the start when the third session starts (the first two start within 10 s)
     * @param end seconds from the start when the run ends; rates are averaged over the second half of
     *     the time after the third session starts ({@code end - (end - thirdAt) / 2} to {@code end})
     */
    static Result run(long seed, EraConfig receiver, boolean fair, int thirdAt, int end) {
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(new MulticastModule()))) {
            List<String> names = new ArrayList<>(List.of("r", "q"));
            for (int i = 0; i < 3; i++) {
                names.add("s" + i);
                names.add("e" + i);
            }
            for (String n : names) {
                net.node(n);
            }
            LinkSpec edge = LinkSpec.builder().delay(Duration.ofMillis(5)).bandwidthBitsPerSecond(10_000_000).build();
            for (int i = 0; i < 3; i++) {
                net.link("s" + i, "r", edge);
                net.link("q", "e" + i, edge);
            }
            net.link("r", "q", LinkSpec.builder().delay(Duration.ofMillis(20))
                    .bandwidthBitsPerSecond(fair ? 10_000_000 : BOTTLENECK).build());
            net.start();
            net.runFor(Duration.ofSeconds(10));
            if (fair) {
                net.nodeNamed("r").interact(stack -> stack.module(LayeredMulticast.class).relayQueueing(RelayQueueing.fair(BOTTLENECK)));
            }
            SplittableRandom random = new SplittableRandom(seed);
            long t0 = net.now();
            long[] starts = {random.nextLong(10 * SECOND), random.nextLong(10 * SECOND), thirdAt * SECOND};
            LayeredReceiver[] receivers = new LayeredReceiver[3];
            for (int i = 0; i < 3; i++) {
                int k = i;
                net.at(t0 + starts[i], now -> {
                    net.nodeNamed("e" + k).interact(stack -> receivers[k] = stack.module(Multicast.class)
                            .joinLayered("b8-" + k, 5004, receiver, m -> { }));
                    net.nodeNamed("s" + k).interact(stack -> stack.module(Multicast.class)
                            .openLayeredSender("b8-" + k, 5004, LAYERS, EraConfig.recommended()));
                });
            }
            long from = t0 + (end - (end - thirdAt) / 2) * SECOND;
            net.runUntil(from);
            double[] sum = new double[3];
            int samples = 0;
            for (long t = from; t < t0 + end * SECOND; t += SECOND / 10) {
                net.runUntil(t + SECOND / 10);
                for (int i = 0; i < 3; i++) {
                    sum[i] += receivers[i].rateBitsPerSecond();
                }
                samples++;
            }
            long dropped = fair
                    ? net.engine("r").counters().moduleDrops().stream().filter(c -> c.reason().equals("layered_fair_queue_full"))
                            .mapToLong(DropCounter::count).sum()
                    : net.direction("r", "q").queueDrops();
            return result(sum, samples, dropped);
        }
    }

    /** Each session's mean rate from {@code sums} of {@code samples} samples (bit/s), with Jain's index and min / max. */
    static Result result(double[] sums, int samples, long dropped) {
        double[] kbps = new double[sums.length];
        double total = 0;
        double squares = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int i = 0; i < sums.length; i++) {
            kbps[i] = sums[i] / samples / 1000;
            total += kbps[i];
            squares += kbps[i] * kbps[i];
            min = Math.min(min, kbps[i]);
            max = Math.max(max, kbps[i]);
        }
        return new Result(kbps, squares == 0 ? 0 : total * total / (sums.length * squares), max == 0 ? 0 : min / max, dropped);
    }

    public static void main(String[] args) {
        int seeds = 20;
        boolean fair = true;
        int floor = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seeds" -> seeds = Integer.parseInt(args[++i]);
                case "--drop-tail" -> fair = false;
                case "--floor" -> floor = Integer.parseInt(args[++i]);
                case "--help" -> {
                    System.out.println("SharedRelayLinkExperiment [--seeds n] [--drop-tail] [--floor packets]: three layered"
                            + " sessions through one 600 Kbit/s relay link (B8), under the relay's fair queuing or a DropTail link");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--help lists them)");
            }
        }
        EraConfig receiver = EraConfig.recommended().toBuilder().queueFloorPackets(floor).build();
        System.out.printf(Locale.ROOT, "B8 on the module, %s, ERA_RECOMMENDED receivers, queue floor %d packets, %d seeds%n",
                fair ? "the relay's fair queuing at 600 Kbit/s" : "a DropTail 600 Kbit/s link (50 packets)", floor, seeds);
        double[] q = new double[seeds];
        double[] i = new double[seeds];
        double[] each = new double[seeds];
        long dropped = 0;
        for (int s = 1; s <= seeds; s++) {
            Result r = run(s, receiver, fair);
            q[s - 1] = r.q();
            i[s - 1] = r.minOverMax();
            each[s - 1] = (r.kbps()[0] + r.kbps()[1] + r.kbps()[2]) / 3;
            dropped += r.dropped();
            System.out.printf(Locale.ROOT, "seed %d: %.0f / %.0f / %.0f Kbit/s, Q %.3f, min/max %.3f, dropped %d%n", s,
                    r.kbps()[0], r.kbps()[1], r.kbps()[2], r.q(), r.minOverMax(), r.dropped());
        }
        System.out.printf(Locale.ROOT, "mean +- 95%%: each %s Kbit/s, Q %s, min/max %s; packets dropped per run %.1f%n",
                interval(each), interval(q), interval(i), (double) dropped / seeds);
    }

    /** Mean +- 1.96 s / sqrt(n) (the normal quantile; the t quantile for 20 seeds, 2.093, is 7% wider). */
    private static String interval(double[] v) {
        double mean = java.util.Arrays.stream(v).average().orElse(0);
        double var = java.util.Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / Math.max(1, v.length - 1);
        return String.format(Locale.ROOT, "%.3f +- %.3f", mean, 1.96 * Math.sqrt(var / v.length));
    }
}
