package net.hopwise.multicast.layered;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.testing.Eventually;

/**
 * {@link SharedRelayLinkExperiment} over loopback UDP between real nodes, on wall-clock time: three
 * sources s0-s2 each send one layered session (30 layers of 20 Kbit/s) through relay r to node e,
 * where three receivers (ERA_RECOMMENDED's rules) each join one. The r-e link carries 600 Kbit/s:
 * either r's fair queuing paces layered data on it ({@link RelayQueueing#fair}), or r's outbound
 * impairment caps it with a DropTail queue of 100 packets ({@code --drop-tail}). Sessions 0 and 1
 * start at once and 2 s later, session 2 at {@code --third} seconds (20); each receiver's subscribed
 * rate is sampled every 100 ms over the second half of the time after that, to {@code --seconds} (40).
 * Prints, per run, the three rates, Jain's index Q, min / max and the packets the bottleneck dropped,
 * then the medians. Run from the repository root: {@code ./mvnw -q -pl overlay-multicast -am
 * test-compile exec:exec -Dmulticast.exec.skip=false -Dexec.executable=java -Dexec.classpathScope=test
 * -Dexec.args="-cp %classpath net.hopwise.multicast.layered.SharedRelayLinkUdpExperiment --runs 3"}.
 */
public final class SharedRelayLinkUdpExperiment {
    private static final String[] SOURCES = {"s0", "s1", "s2"};

    private SharedRelayLinkUdpExperiment() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 3;
        int third = 20;
        int seconds = 40;
        boolean fair = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--third" -> third = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--drop-tail" -> fair = false;
                case "--help" -> {
                    System.out.println("SharedRelayLinkUdpExperiment [--runs n] [--third s] [--seconds s] [--drop-tail]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--help lists them)");
            }
        }
        System.out.printf(Locale.ROOT, "B8 over loopback UDP, %s, %d runs%n",
                fair ? "r's fair queuing at 600 Kbit/s" : "r's outbound cap of 600 Kbit/s (DropTail, 100 packets)", runs);
        List<SharedRelayLinkExperiment.Result> all = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            SharedRelayLinkExperiment.Result r = run(fair, third, seconds);
            all.add(r);
            System.out.printf(Locale.ROOT, "run %d: %.0f / %.0f / %.0f Kbit/s, Q %.3f, min/max %.3f, dropped %d%n", run,
                    r.kbps()[0], r.kbps()[1], r.kbps()[2], r.q(), r.minOverMax(), r.dropped());
        }
        System.out.printf(Locale.ROOT, "median: each %.1f Kbit/s, Q %.3f, min/max %.3f, dropped %.0f%n",
                LayeredUdpExperiment.median(all.stream().mapToDouble(r -> (r.kbps()[0] + r.kbps()[1] + r.kbps()[2]) / 3).toArray()),
                LayeredUdpExperiment.median(all.stream().mapToDouble(SharedRelayLinkExperiment.Result::q).toArray()),
                LayeredUdpExperiment.median(all.stream().mapToDouble(SharedRelayLinkExperiment.Result::minOverMax).toArray()),
                LayeredUdpExperiment.median(all.stream().mapToDouble(SharedRelayLinkExperiment.Result::dropped).toArray()));
    }

    static SharedRelayLinkExperiment.Result run(boolean fair, int third, int seconds) throws Exception {
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        NodeRuntime runtime = NodeRuntime.create(2);
        try {
            for (String name : List.of("s0", "s1", "s2", "r", "e")) {
                nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0).defaultMetric(RoutingMetric.HOPS)
                        .module(new MulticastModule()).build(), runtime));
            }
            for (String s : SOURCES) {
                LayeredUdpExperiment.link(nodes, s, "r");
            }
            LayeredUdpExperiment.link(nodes, "r", "e");
            for (OverlayNode node : nodes.values()) {
                Eventually.await(node.name() + " reaches every node",
                        () -> node.reachableNodes(RoutingMetric.HOPS).containsAll(nodes.keySet()));
            }
            OverlayNode relay = nodes.get("r");
            if (fair) {
                relay.module(Multicast.class).layered().relayQueueing(RelayQueueing.fair(SharedRelayLinkExperiment.BOTTLENECK));
            } else {
                relay.impair("e", Direction.OUTBOUND, ImpairmentConfig.builder()
                        .rateBitsPerSecond(SharedRelayLinkExperiment.BOTTLENECK).build());
            }
            Multicast receiving = nodes.get("e").module(Multicast.class);
            LayeredReceiver[] receivers = new LayeredReceiver[3];
            for (int i = 0; i < 3; i++) {
                receivers[i] = receiving.joinLayered("b8-" + i, 5004, EraConfig.recommended(), m -> { });
            }
            long start = System.nanoTime();
            long[] starts = {0, 2_000_000_000L, third * 1_000_000_000L};
            for (int i = 0; i < 3; i++) {
                int k = i;
                Multicast source = nodes.get(SOURCES[i]).module(Multicast.class);
                Eventually.await(SOURCES[i] + " sees e", () -> source.memberNodes("b8-" + k).contains(NodeId.ofName("e")));
                sleepUntil(start + starts[i]);
                source.openLayeredSender("b8-" + i, 5004, SharedRelayLinkExperiment.LAYERS, EraConfig.recommended());
            }
            long from = start + (seconds - (seconds - third) / 2) * 1_000_000_000L;
            sleepUntil(from);
            double[] sum = new double[3];
            int samples = 0;
            for (long t = from; t < start + seconds * 1_000_000_000L; t += 100_000_000L) {
                sleepUntil(t + 100_000_000L);
                for (int i = 0; i < 3; i++) {
                    sum[i] += receivers[i].rateBitsPerSecond();
                }
                samples++;
            }
            long dropped = fair
                    ? relay.counters().moduleDrops().stream().filter(c -> c.reason().equals("layered_fair_queue_full"))
                            .mapToLong(DropCounter::count).sum()
                    : relay.counters().drops(DropReason.IMPAIRMENT);
            return SharedRelayLinkExperiment.result(sum, samples, dropped);
        } finally {
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    /** Waits for the wall clock: the nodes' timers and sockets run on their own threads meanwhile. */
    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
