package net.hopwise.multicast;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RealTimeStatistics;
import net.hopwise.overlay.testing.VirtualOverlay;

/**
 * A real-time group on production node stacks joined by virtual links, every link losing a share
 * {@code p} of its datagrams both ways: source a; relay b (no member) with members c and d behind
 * it; member e, which also relays to member f. Members are 1 (e) or 2 (c, d, f) hops from the
 * source. Shared by the test and the residual-loss experiment.
 */
final class RealTimeScenario {
    static final long MS = 1_000_000L;
    static final String GROUP = "conference";
    static final int PORT = 5004;
    /** Member node and its hops from the source. */
    static final Map<String, Integer> MEMBERS = Map.of("c", 2, "d", 2, "e", 1, "f", 2);
    /** Packets sent after the measured ones, without loss, to reveal the losses among the last. */
    static final int TAIL = 5;
    private static final String[][] LINKS = {{"a", "b"}, {"b", "c"}, {"b", "d"}, {"a", "e"}, {"e", "f"}};

    /**
     * What a run gave: each member's statistics ({@code lost} counts the measured packets only: the
     * tail arrives whole), and the largest true delay of a delivered packet.
     */
    record Result(Map<String, RealTimeStatistics> stats, Map<String, Inbox> inboxes, long maxDeliveredDelayNanos,
            long lateDrops, long refusedForDeadline, double modelLossPerLink) {

        /** Observed packets lost over what the model expects, all members together. */
        double lossOverModel(int packets) {
            double expected = 0;
            long lost = 0;
            for (Map.Entry<String, Integer> m : MEMBERS.entrySet()) {
                expected += packets * (1 - Math.pow(1 - modelLossPerLink, m.getValue()));
                lost += stats.get(m.getKey()).lost();
            }
            return lost / expected;
        }
    }

    private RealTimeScenario() {}

    /** The residual loss of one real-time link with independent loss {@code p} each way (thesis, 6.2.1). */
    static double model(double p) {
        return 2 * p * p - 3 * p * p * p;
    }

    /**
     * The same counting the losses of the packet after a loss, which the thesis neglects: {@code 2p^2 -
     * p^3} (see overlay-core's {@code ResidualLossTest}).
     */
    static double modelWithNextPacketLosses(double p) {
        return 2 * p * p - p * p * p;
    }

    /**
     * Sends {@code packets} packets every {@code intervalMs} over links of {@code linkMs} one way, with
     * the given deadline, and returns once the last could have arrived.
     */
    static Result run(long seed, double loss, int packets, long intervalMs, long linkMs, Duration deadline) {
        try (VirtualOverlay overlay = new VirtualOverlay(seed,
                b -> b.module(new MulticastModule()).defaultMetric(RoutingMetric.HOPS))) {
            for (String n : List.of("a", "b", "c", "d", "e", "f")) {
                overlay.node(n);
            }
            for (String[] l : LINKS) {
                overlay.link(l[0], l[1], linkMs * MS);
            }
            overlay.startAll();
            overlay.runFor(3_000 * MS);
            Map<String, Inbox> inboxes = new LinkedHashMap<>();
            long[] sentAt = new long[packets + TAIL];
            long[] maxDelay = {0};
            for (String m : MEMBERS.keySet()) {
                Inbox inbox = new Inbox();
                MessageHandler timed = message -> {
                    inbox.onMessage(message);
                    maxDelay[0] = Math.max(maxDelay[0], overlay.now() - sentAt[(int) message.messageId()]);
                };
                inboxes.put(m, inbox);
                multicast(overlay, m).join(GROUP, PORT, timed);
            }
            overlay.runFor(2_000 * MS);
            // Loss starts once membership has flooded: the experiment is about the data's recovery.
            for (String[] l : LINKS) {
                overlay.loss(l[0], l[1], loss);
                overlay.loss(l[1], l[0], loss);
            }
            RealTimeGroupSender sender = multicast(overlay, "a").realTimeSender(GROUP, PORT, null, deadline);
            byte[] frame = new byte[160];
            for (int i = 0; i < packets + TAIL; i++) {
                if (i == packets) {
                    for (String[] l : LINKS) {
                        overlay.loss(l[0], l[1], 0);
                        overlay.loss(l[1], l[0], 0);
                    }
                }
                multicast(overlay, "a");
                sentAt[i] = overlay.now();
                if (!sender.send(frame).accepted()) {
                    throw new IllegalStateException("send " + i + " refused");
                }
                overlay.runFor(intervalMs * MS);
            }
            overlay.runFor(500 * MS);
            Map<String, RealTimeStatistics> stats = new LinkedHashMap<>();
            long lateDrops = 0;
            for (String m : MEMBERS.keySet()) {
                List<RealTimeMemberStatistics> s = multicast(overlay, m).realTimeStatistics(GROUP);
                if (s.size() != 1) {
                    throw new IllegalStateException(m + " has " + s.size() + " streams");
                }
                stats.put(m, s.get(0).stats());
                lateDrops += drop(overlay.engine(m), "multicast_realtime_late");
            }
            long refused = 0;
            for (String[] l : LINKS) {
                if (!l[0].equals("a")) {
                    refused += overlay.engine(l[0]).realTimeChannel(id(l[1])).refusedExpired();
                }
            }
            return new Result(stats, inboxes, maxDelay[0], lateDrops, refused, model(loss));
        }
    }

    static Multicast multicast(VirtualOverlay overlay, String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack.module(Multicast.class);
    }

    static long drop(NodeStack stack, String reason) {
        return stack.counters().moduleDrops().stream().filter(c -> c.reason().equals(reason))
                .mapToLong(net.hopwise.overlay.spi.DropCounter::count).sum();
    }

    static NodeId id(String name) {
        return NodeId.ofName(name);
    }
}
