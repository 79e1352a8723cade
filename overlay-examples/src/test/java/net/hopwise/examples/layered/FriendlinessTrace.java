package net.hopwise.examples.layered;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.hopwise.examples.layered.LayeredScenarios.Protocol;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;
import net.hopwise.overlay.sim.tcp.TcpVariant;

/**
 * Why a layered session and TCP see different loss beside each other: the bottleneck's overflow
 * episodes (queue drops chained less than a round trip apart), which of them TCP cut its window in,
 * and which ERA lost in, with ERA's loss events grouped as its receiver groups them. Virtual time.
 *
 * <p>Arguments: {@code --protocol P} (default ERA_PROMPT), {@code --seeds n} (3), {@code --seconds
 * s} (120), {@code --flows k} (1: ERA Exp. III, 400 Kbit/s, exterior 10 Mbit/s; 9: B7', 1 Mbit/s),
 * {@code --edge bps} (exterior links, one-flow case), {@code --first tcp|multicast}, {@code --print
 * from,to} (seconds: every drop, cut and ERA loss in that span, of the first seed).
 */
public final class FriendlinessTrace {
    private static final long SECOND = LayeredScenarios.SECOND;
    private static final int PACKET = LayeredScenarios.PACKET;

    private FriendlinessTrace() {
    }

    public static void main(String[] args) {
        Protocol protocol = Protocol.ERA_PROMPT;
        int seeds = 3;
        int seconds = 120;
        int flows = 1;
        long edge = 10_000_000;
        boolean tcpFirst = false;
        double printFrom = -1;
        double printTo = -1;
        int hold = -1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--protocol" -> protocol = Protocol.valueOf(args[i + 1]);
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--flows" -> flows = Integer.parseInt(args[i + 1]);
                case "--edge" -> edge = Long.parseLong(args[i + 1]);
                case "--hold" -> hold = Integer.parseInt(args[i + 1]);
                case "--first" -> tcpFirst = "tcp".equals(args[i + 1]);
                case "--print" -> {
                    String[] span = args[i + 1].split(",");
                    printFrom = Double.parseDouble(span[0]);
                    printTo = Double.parseDouble(span[1]);
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.println("| seed | mc Kbit/s | TCP Kbit/s (mean) | F | episodes/s | TCP cuts/s (all flows) | episodes with a cut"
                + " | ERA lost in | ERA events/s (TFRC) | ERA events/s (chained) | ERA events in episodes with no cut"
                + " | ERA packets lost/s | ERA l (TFRC) | queue mean | 2 RTT from start | 2 RTT chained | TCP cuts per segment | head losses, 1 RTT | head, 2 RTT | tail share |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (int s = 1; s <= seeds; s++) {
            run(protocol, s, seconds, flows, edge, tcpFirst, s == 1 ? printFrom : -1, printTo, hold);
        }
    }

    private static void run(Protocol protocol, long seed, int seconds, int flows, long edge, boolean tcpFirst,
            double printFrom, double printTo, int hold) {
        SplittableRandom random = new SplittableRandom(seed);
        long bottleneck = flows == 1 ? 400_000 : 1_000_000;
        try (SimNetwork net = new SimNetwork(seed)) {
            net.plainNode("S");
            net.plainNode("E");
            net.plainNode("R0");
            net.plainNode("R1");
            LinkSpec edgeLink = LayeredScenarios.link(edge, 5, LayeredScenarios.twiceBdp(edge, 0.06));
            net.link("S", "R0", edgeLink);
            net.link("R1", "E", edgeLink);
            net.link("R0", "R1", LayeredScenarios.link(bottleneck, 20, LayeredScenarios.twiceBdp(bottleneck, 0.06)));
            for (int i = 1; i <= flows; i++) {
                net.plainNode("T" + i);
                net.plainNode("D" + i);
                net.link("T" + i, "R0", edgeLink);
                net.link("R1", "D" + i, edgeLink);
            }
            net.start();
            long start = Simulator.START_NANOS;
            long mcAt;
            long joinAt;
            long[] tcpAt = new long[flows];
            if (flows == 1) {
                mcAt = start + (tcpFirst ? 20 * SECOND : 0) + random.nextLong(SECOND / 2);
                tcpAt[0] = start + (tcpFirst ? 0 : 20 * SECOND) + random.nextLong(SECOND / 2);
                joinAt = mcAt + 3 * SECOND;
            } else {
                mcAt = start + random.nextLong(5 * SECOND);
                joinAt = mcAt;
                for (int i = 0; i < flows; i++) {
                    tcpAt[i] = start + random.nextLong(5 * SECOND);
                }
            }
            LayeredSession session = new LayeredSession(net, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"),
                    LayeredScenarios.LAYERS, LayeredScenarios.cfg(), mcAt, 0, seed);
            List<double[]> eraLosses = new ArrayList<>();
            long[] expected = new long[LayeredScenarios.LAYERS.count()];
            long[] lastSent = new long[expected.length];
            boolean[] synced = new boolean[expected.length];
            LayeredSession.Receiver receiver = session.receiver("E", sub -> {
                LayeredController inner = hold >= 0 ? new Held(sub, hold)
                        : Controllers.of(protocol, LayeredScenarios.cfg(), sub, seed * 1000);
                return new Tap(inner, expected, lastSent, synced, eraLosses);
            }, joinAt);
            TcpConfig tcpConfig = TcpConfig.builder().segmentBytes(PACKET - TcpConfig.DEFAULT_HEADER_BYTES)
                    .receiverWindow(2000).build();
            List<TcpFlow> tcps = new ArrayList<>();
            for (int i = 1; i <= flows; i++) {
                TcpFlow f = new TcpFlow(net, i, TcpVariant.RENO, tcpConfig, net.path("T" + i, "R0", "R1", "D" + i),
                        net.path("D" + i, "R1", "R0", "T" + i), new DelayStatistics());
                f.bulk(tcpAt[i - 1]);
                tcps.add(f);
            }
            SimLink queue = net.direction("R0", "R1");
            long end = start + seconds * SECOND;
            long from = start + seconds / 2 * SECOND;
            List<Long> drops = new ArrayList<>();
            List<Long> cuts = new ArrayList<>();
            long[] last = new long[2];
            double[] queueSum = new double[2];
            long[] delivered = new long[flows];
            long[] segAt = new long[1];
            net.at(from, now -> {
                last[0] = queue.queueDrops();
                for (TcpFlow f : tcps) {
                    last[1] += f.sender().fastRetransmits() + f.sender().timeouts();
                }
                for (int i = 0; i < flows; i++) {
                    delivered[i] = tcps.get(i).receiver().delivered();
                    segAt[0] -= tcps.get(i).sender().segmentsSent();
                }
            });
            // Every millisecond: new drops at the bottleneck and new window cuts, stamped to the millisecond.
            for (long t = from + SECOND / 1000; t <= end; t += SECOND / 1000) {
                net.at(t, now -> {
                    long d = queue.queueDrops();
                    for (long k = last[0]; k < d; k++) {
                        drops.add(now);
                    }
                    last[0] = d;
                    long c = 0;
                    for (TcpFlow f : tcps) {
                        c += f.sender().fastRetransmits() + f.sender().timeouts();
                    }
                    for (long k = last[1]; k < c; k++) {
                        cuts.add(now);
                    }
                    last[1] = c;
                    queueSum[0] += queue.queueLength();
                    queueSum[1]++;
                });
            }
            net.runUntil(end);
            double half = (end - from) / 1e9;
            double tcpSum = 0;
            for (int i = 0; i < flows; i++) {
                tcpSum += (tcps.get(i).receiver().delivered() - delivered[i]) * 8.0 * PACKET / half;
            }
            double mc = receiver.stats.throughput(from, end);
            double rtt = tcps.get(0).sender().smoothedRttNanos();
            List<double[]> lossesHalf = eraLosses.stream().filter(l -> l[5] >= from)
                    .sorted(java.util.Comparator.comparingDouble(l -> l[5])).toList();
            // Where a lost packet met the queue: its send time plus the exterior link (5 ms and the packet's time on it).
            double toQueue = 5e6 + 8.0 * PACKET * 1e9 / edge;
            // Episodes: drops chained less than one round trip apart.
            List<long[]> episodes = new ArrayList<>();
            for (long d : drops) {
                if (episodes.isEmpty() || d - episodes.get(episodes.size() - 1)[1] > rtt) {
                    episodes.add(new long[] {d, d});
                } else {
                    episodes.get(episodes.size() - 1)[1] = d;
                }
            }
            int withCut = 0;
            int eraIn = 0;
            for (long[] e : episodes) {
                // A cut follows the drop by about a round trip (three duplicate ACKs).
                if (cuts.stream().anyMatch(c -> c >= e[0] && c <= e[1] + 2 * rtt)) {
                    withCut++;
                }
                if (lossesHalf.stream().anyMatch(l -> l[5] + toQueue >= e[0] - 1e6 && l[5] + toQueue <= e[1] + 1e6)) {
                    eraIn++;
                }
            }
            // ERA's events as TFRC groups them (from the start of an event, the RTT the receiver's equation used) and chained.
            int tfrc = 0;
            int chained = 0;
            int start2 = 0;
            int head1 = 0;
            int head2 = 0;
            double h1 = Double.NEGATIVE_INFINITY;
            double h2 = Double.NEGATIVE_INFINITY;
            int chained2 = 0;
            double s2 = Double.NEGATIVE_INFINITY;
            double p2 = Double.NEGATIVE_INFINITY;
            int noCut = 0;
            double eventStart = Double.NEGATIVE_INFINITY;
            double previous = Double.NEGATIVE_INFINITY;
            for (double[] l : lossesHalf) {
                // By send time, over the round trip TCP measures.
                double r = rtt;
                if (l[5] - eventStart >= r) {
                    tfrc++;
                    eventStart = l[5];
                    double t = l[5] + toQueue;
                    if (cuts.stream().noneMatch(c -> Math.abs(c - t) <= 2 * rtt)) {
                        noCut++;
                    }
                }
                if (l[5] - previous >= r) {
                    chained++;
                }
                if (l[5] - s2 >= 2 * r) {
                    start2++;
                    s2 = l[5];
                }
                if (l[5] - p2 >= 2 * r) {
                    chained2++;
                }
                p2 = l[5];
                if (l[6] == 0 && l[5] - h1 >= r) {
                    head1++;
                    h1 = l[5];
                }
                if (l[6] == 0 && l[5] - h2 >= 2 * r) {
                    head2++;
                    h2 = l[5];
                }
                previous = l[5];
            }
            double lost = lossesHalf.stream().mapToDouble(l -> l[1]).sum();
            double received = receiver.stats.throughput(from, end) * half / (8.0 * PACKET);
            System.out.printf("| %d | %.1f | %.1f | %.2f | %.2f | %.2f | %d of %d | %d | %.2f | %.2f | %d of %d | %.2f | %.4f | %.1f | %.2f | %.2f | %.4f | %.2f | %.2f | %.2f |%n",
                    seed, mc / 1000, tcpSum / flows / 1000, mc / (tcpSum / flows), episodes.size() / half, cuts.size() / half,
                    withCut, episodes.size(), eraIn, tfrc / half, chained / half, noCut, tfrc, lost / half,
                    tfrc / (received + lost), queueSum[0] / queueSum[1], start2 / half, chained2 / half,
                    (double) cuts.size() / flows / Math.max(1, tcpSegments(tcps, segAt)), head1 / half, head2 / half,
                    lossesHalf.stream().filter(l -> l[6] == 1).count() / (double) Math.max(1, lossesHalf.size()));
            if (printFrom >= 0) {
                List<String> lines = new ArrayList<>();
                double zero = start;
                for (long d : drops) {
                    lines.add(String.format("%10.3f drop", (d - zero) / 1e9));
                }
                for (long c : cuts) {
                    lines.add(String.format("%10.3f TCP cut", (c - zero) / 1e9));
                }
                for (double[] l : eraLosses) {
                    lines.add(String.format("%10.3f ERA lost %d (layer %d, level %d, sent %.3f)", (l[0] - zero) / 1e9,
                            (long) l[1], (long) l[3], (long) l[4], (l[5] - zero) / 1e9));
                }
                lines.stream().filter(x -> {
                    double t = Double.parseDouble(x.trim().split(" ")[0]);
                    return t >= printFrom && t < printTo;
                }).sorted().forEach(System.out::println);
            }
        }
    }

    private static long tcpSegments(List<TcpFlow> tcps, long[] segAt) {
        long n = segAt[0];
        for (TcpFlow f : tcps) {
            n += f.sender().segmentsSent();
        }
        return n / tcps.size();
    }

    /** An open-loop receiver: every layer up to {@code hold} from the join on, whatever it sees. */
    private static final class Held implements LayeredController {
        private final net.hopwise.multicast.layered.LayerSubscriber subscriber;
        private final int hold;
        private int level = -1;

        Held(net.hopwise.multicast.layered.LayerSubscriber subscriber, int hold) {
            this.subscriber = subscriber;
            this.hold = hold;
        }

        @Override
        public void join(long now) {
            while (level < hold) {
                subscriber.join(++level, now);
            }
        }

        @Override
        public void onAnnouncement(SessionAnnouncement a, long now) {
        }

        @Override
        public void onPacket(LayeredPacket p, long now) {
        }

        @Override
        public void onTimer(long now) {
        }

        @Override
        public long nextDeadlineNanos() {
            return Long.MAX_VALUE;
        }

        @Override
        public int level() {
            return level;
        }
    }

    /** Passes everything to the controller and notes each gap: arrival, packets lost, the RTT, layer, level, send time. */
    private record Tap(LayeredController inner, long[] expected, long[] lastSent, boolean[] synced, List<double[]> losses)
            implements LayeredController {
        @Override
        public void join(long now) {
            inner.join(now);
        }

        @Override
        public void onAnnouncement(SessionAnnouncement a, long now) {
            inner.onAnnouncement(a, now);
        }

        @Override
        public void onPacket(LayeredPacket p, long now) {
            int j = p.layer();
            if (j <= inner.level()) {
                if (synced[j]) {
                    long gap = (p.sequence() - expected[j]) & 0xFFFF_FFFFL;
                    if (gap > 0 && gap < 0x8000_0000L && gap < 4096) {
                        // Each lost packet's send time: its bunch's (a bunch's packets leave back to back; a
                        // bunch's first sequence number is a multiple of B), the bunches between interpolated.
                        long b = p.bunchLength();
                        long last = expected[j] - 1;
                        long now2 = p.sendTimeMicros() * 1000L;
                        for (long q = expected[j]; q < expected[j] + gap; q++) {
                            double sent = q / b == last / b ? lastSent[j] : q / b == p.sequence() / b ? now2
                                    : lastSent[j] + (double) (now2 - lastSent[j]) * (q / b - last / b) / (p.sequence() / b - last / b);
                            losses.add(new double[] {now, 1, inner.rttNanos(), j, inner.level(), sent, q / b == last / b ? 1 : 0});
                        }
                    }
                }
                synced[j] = true;
                expected[j] = (p.sequence() + 1) & 0xFFFF_FFFFL;
                lastSent[j] = p.sendTimeMicros() * 1000;
            }
            inner.onPacket(p, now);
            for (int k = inner.level() + 1; k < synced.length; k++) {
                synced[k] = false;
            }
        }

        @Override
        public void onTimer(long now) {
            inner.onTimer(now);
            for (int k = inner.level() + 1; k < synced.length; k++) {
                synced[k] = false;
            }
        }

        @Override
        public long nextDeadlineNanos() {
            return inner.nextDeadlineNanos();
        }

        @Override
        public int level() {
            return inner.level();
        }

        @Override
        public boolean counts(LayeredPacket packet) {
            return inner.counts(packet);
        }
    }
}
