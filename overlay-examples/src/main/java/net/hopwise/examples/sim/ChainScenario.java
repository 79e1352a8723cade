package net.hopwise.examples.sim;

import java.time.Duration;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.OverlayCbrFlow;
import net.hopwise.overlay.sim.OverlaySessionFlow;
import net.hopwise.overlay.sim.QueueDiscipline;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;

/**
 * The papers' chain: {@code hops} equal links sharing {@code totalDelayMillis} of one-way delay,
 * Bernoulli loss on the middle link, a constant-rate stream of fixed-size messages from the first
 * node to the last, carried by one {@link Protocol}. Chain-5 (A-B-C-D-E-F, five 10 ms links, loss on
 * C-D) is {@code hops = 5}.
 *
 * <p>Choices the papers leave open, made here and stated in docs/benchmarks.md: 10 Mbit/s links
 * (Emulab's per-link TCP reached 9.59 Mbit/s), ns-2's DropTail queue of 50 packets, loss on the data
 * direction of the lossy link only, and a settling period after the source stops so that messages
 * still in flight can arrive (messages never delivered are counted, not averaged).
 */
record ChainScenario(int hops, double totalDelayMillis, double loss, boolean lossBothWays, int rateKbps,
        int messageBytes, double durationSeconds, Protocol protocol, long seed) {
    static final long LINK_BITS_PER_SECOND = 10_000_000;
    static final double SETTLE_SECONDS = 30;
    static final long MS = 1_000_000L;
    /** Where hop-by-hop wins are judged: 50 ms of propagation plus one 10 ms hop's recovery; and 100 ms. */
    static final long[] THRESHOLDS = {60 * MS, 100 * MS};

    static ChainScenario chain5(double loss, int rateKbps, double seconds, Protocol protocol, long seed) {
        return new ChainScenario(5, 50, loss, false, rateKbps, 1000, seconds, protocol, seed);
    }

    /** The index of the lossy link: the middle one (C-D for five hops; for even counts, the one after the middle). */
    int lossyLink() {
        return hops / 2;
    }

    ChainResult run() {
        return run(null);
    }

    /**
     * Runs the scenario; {@code everyHundredSeconds}, when given, is called after each 100 simulated
     * seconds (to watch memory or progress).
     */
    ChainResult run(java.util.function.Consumer<SimNetwork> everyHundredSeconds) {
        long wallStart = System.nanoTime();
        try (SimNetwork net = new SimNetwork(seed)) {
            // The link protocol used end to end has overlay nodes only at the ends: one overlay link spans
            // the whole path, modelled as one link with the path's delay and the middle link's loss.
            int links = protocol == Protocol.LINK_END_TO_END ? 1 : hops;
            String[] names = new String[links + 1];
            for (int i = 0; i <= links; i++) {
                names[i] = String.valueOf((char) ('A' + (i == links ? hops : i)));
                if (protocol.tcp != null) {
                    net.plainNode(names[i]);
                } else {
                    net.node(names[i]);
                }
            }
            LinkSpec plain = LinkSpec.builder().delay(Duration.ofNanos(Math.round(totalDelayMillis * MS / links)))
                    .bandwidthBitsPerSecond(LINK_BITS_PER_SECOND).queue(QueueDiscipline.dropTail()).build();
            int lossyLink = links == 1 ? 0 : lossyLink();
            for (int i = 0; i < links; i++) {
                if (i == lossyLink && loss > 0) {
                    LinkSpec lossy = plain.withLoss(new LossModel.Bernoulli(loss));
                    net.link(names[i], names[i + 1], lossy, lossBothWays ? lossy : plain);
                } else {
                    net.link(names[i], names[i + 1], plain);
                }
            }
            net.start();
            DelayStatistics delays = new DelayStatistics(THRESHOLDS);
            long interval = Math.round(messageBytes * 8.0 * 1e9 / (rateKbps * 1000.0));
            // Overlay nodes need a few seconds to find their links and routes before traffic starts.
            long start = net.now() + (protocol.tcp == null ? 5_000 * MS : 0);
            long stop = start + Math.round(durationSeconds * 1e9);
            long generated;
            long delivered;
            if (protocol.tcp != null) {
                String[] back = new String[names.length];
                for (int i = 0; i < names.length; i++) {
                    back[i] = names[names.length - 1 - i];
                }
                TcpFlow flow = new TcpFlow(net, 1, protocol.tcp, TcpConfig.builder().segmentBytes(messageBytes).build(),
                        net.path(names), net.path(back), delays);
                flow.constantRate(start, interval, stop);
                runTo(net, stop + Math.round(SETTLE_SECONDS * 1e9), everyHundredSeconds);
                generated = flow.generated();
                delivered = flow.receiver().delivered();
            } else if (protocol == Protocol.HOP_BY_HOP || protocol == Protocol.LINK_END_TO_END) {
                OverlaySessionFlow flow = new OverlaySessionFlow(net, 1, names[0], names[links], 7, messageBytes,
                        RoutingMetric.HOPS, delays);
                flow.start(start, interval, stop);
                runTo(net, stop + Math.round(SETTLE_SECONDS * 1e9), everyHundredSeconds);
                generated = flow.generated();
                delivered = flow.delivered();
            } else {
                OverlayCbrFlow flow = new OverlayCbrFlow(net, 1, names[0], names[hops], 7, messageBytes,
                        RoutingMetric.HOPS, delays);
                flow.start(start, interval, stop);
                runTo(net, stop + Math.round(SETTLE_SECONDS * 1e9), everyHundredSeconds);
                generated = flow.generated();
                delivered = flow.delivered();
            }
            double wall = (System.nanoTime() - wallStart) / 1e9;
            return new ChainResult(this, delays, generated, delivered, net.simulator().eventsExecuted(), wall,
                    (net.now() - Simulator.START_NANOS) / 1e9, net.trace().digest());
        }
    }

    private static void runTo(SimNetwork net, long end, java.util.function.Consumer<SimNetwork> observer) {
        if (observer == null) {
            net.runUntil(end);
            return;
        }
        while (net.now() < end) {
            net.runUntil(Math.min(end, net.now() + 100_000 * MS));
            observer.accept(net);
        }
    }
}
