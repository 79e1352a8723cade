package net.hopwise.examples.layered;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.hopwise.multicast.layered.EraConfig;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.multicast.layered.TcpFriendlyRate;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.QueueDiscipline;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;
import net.hopwise.overlay.sim.tcp.TcpVariant;

/**
 * The layered-multicast scenarios of the thesis's chapter 6 in our simulator, with ERA or PLM as the
 * receivers' controller: the settings are the thesis's (512-byte packets, 100 equal layers of
 * 20 Kbit/s, DropTail queues of 2 x the bandwidth-delay product, TCP Reno with windows up to 2000
 * segments) unless a parameter says otherwise.
 */
final class LayeredScenarios {
    static final long SECOND = 1_000_000_000L;
    /**
     * The thesis's 512 bytes; {@code -Dlayered.packet=bytes} for the sensitivity sweep (the thesis's
     * 1024 and 1500): every packet of a run, the sessions', TCP's segments (with their headers) and
     * the CBR cross traffic's, and the queues' BDP in packets.
     */
    static final int PACKET = Sweep.PACKET_BYTES;
    static final LayerRates LAYERS = LayerRates.equal(100, 20_000);
    /** Ours, finer: a 20 Kbit/s base layer (the thesis's, so a joiner's first pairs come as often) and 198 of 10 Kbit/s. */
    static final LayerRates FINE_LAYERS = fine();

    private static LayerRates fine() {
        long[] rates = new long[199];
        java.util.Arrays.fill(rates, 10_000);
        rates[0] = 20_000;
        return LayerRates.of(rates);
    }

    enum Protocol {
        /**
         * ERA as the thesis ran it: lost packets counted, the one-interval minimum, and a constant
         * round trip of 50 ms in the TCP equation (its trace reproduces exactly with 50 ms; the text
         * gives 2 x one-way latency + an arbitrary queueing allowance).
         */
        ERA,
        /** The same with the round trip measured: 2 x the one-way latency from SCT, smoothed, + 10 ms. */
        ERA_RTT,
        /** ERA counting TFRC's loss events instead of lost packets (constant 50 ms round trip). */
        ERA_EVENTS,
        /** Ours: loss events and the bunch estimate over the last three intervals. */
        ERA_PLUS,
        /** Ours, towards the goals the thesis's ERA misses: {@link EraConfig#fair()}, with the round trip of the other rows. */
        ERA_FAIR,
        /** Ours: {@link EraConfig#prompt()}, ERA_FAIR and a drop at once when the bottleneck's queue grows fast. */
        ERA_PROMPT,
        /** Ours: {@link EraConfig#tfrc()}, ERA_PROMPT with TFRC's loss-event history and a rise at most twice the rate received. */
        ERA_TFRC,
        /** Ours, experimental: ERA_PROMPT whose halving-sized queue drops also drain the queue ({@link EraConfig.Builder#queueDrain}). */
        ERA_DRAIN,
        /**
         * Ours: {@link EraConfig#friendly()} with the round trip measured through the queue
         * ({@code RttEstimator.forwardQueue}: the least one-way delay plus the smoothed one), as TCP's own round trip is.
         */
        ERA_FRIENDLY,
        /** Ours, the preset to pick: {@link EraConfig#recommended()}, ERA_FRIENDLY with the drain, the round trip measured as ERA_FRIENDLY's. */
        ERA_RECOMMENDED,
        PLM,
        RLM
    }

    private LayeredScenarios() {
    }

    /** The session's configuration: the sender's, and every receiver's (the thesis's defaults). */
    static EraConfig cfg() {
        return Sweep.sender(EraConfig.defaults());
    }

    /**
     * The sender's configuration of a session whose receivers run {@code protocol}: ERA_RECOMMENDED's
     * preset sends as the thesis's defaults but with its jitter capped in time
     * ({@link EraConfig.Builder#bunchJitterCap}, which leaves the thesis's 20 Kbit/s layers as they
     * were); every other row's sender is the thesis's.
     */
    static EraConfig senderCfg(Protocol protocol) {
        return protocol == Protocol.ERA_RECOMMENDED ? Sweep.sender(EraConfig.recommended()) : cfg();
    }

    /** The fraction of the pair estimate {@code protocol}'s receivers leave free on a loss-free path. */
    static double headroom(Protocol protocol) {
        return protocol == Protocol.ERA_RECOMMENDED ? EraConfig.recommended().headroom() : 0;
    }

    /**
     * DropTail of 2 x BDP in packets, at least 4 (the thesis's rule; RTT as the scenario's); the
     * multiple is {@code -Dlayered.bdp} for the sensitivity sweep (the thesis's 1 to 4), and
     * {@code -Dlayered.queue=red} makes it RED ({@link Sweep}).
     */
    static QueueDiscipline twiceBdp(long bps, double rttSeconds) {
        return Sweep.queue((int) Math.max(4, Math.ceil(Sweep.BDP_MULTIPLE * bps * rttSeconds / (8 * PACKET))));
    }

    static LinkSpec link(long bps, double delayMillis, QueueDiscipline queue) {
        return LinkSpec.builder().bandwidthBitsPerSecond(bps).delayMillis(delayMillis).queue(queue).build();
    }

    /** One receiver of the heterogeneous experiment. */
    record Row(long bottleneck, int expectedLevel, int finalLevel, double settleSeconds, double throughput, double lossRate,
            long changesAfterSettling) {
        double efficiency() {
            return throughput / Math.min(bottleneck, LAYERS.cumulative(LAYERS.count() - 1));
        }
    }

    /**
     * One source, a 10 Mbit/s first hop, then one receiver behind each bottleneck (20 ms, DropTail
     * 2 x BDP); receivers join at 3-4 s, throughput is averaged over the second half of the run.
     */
    static List<Row> heterogeneous(Protocol protocol, long seed, long[] bottlenecks, int seconds) {
        return heterogeneous(protocol, seed, bottlenecks, seconds, LAYERS);
    }

    /** The same on other layers (of 2 Mbit/s in all, as the thesis's, which E divides by when a path carries more). */
    static List<Row> heterogeneous(Protocol protocol, long seed, long[] bottlenecks, int seconds, LayerRates layers) {
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            net.plainNode("S");
            net.plainNode("R0");
            net.link("S", "R0", link(10_000_000, 5, twiceBdp(10_000_000, 0.05)));
            java.util.Map<String, String> parents = new java.util.HashMap<>();
            parents.put("R0", "S");
            for (int i = 0; i < bottlenecks.length; i++) {
                net.plainNode("r" + i);
                net.link("R0", "r" + i, link(bottlenecks[i], 20, twiceBdp(bottlenecks[i], 0.05)));
                parents.put("r" + i, "R0");
            }
            net.start();
            long start = Simulator.START_NANOS;
            LayeredSession session = new LayeredSession(net, "S", parents, layers, senderCfg(protocol), start, 0, seed);
            List<LayeredSession.Receiver> receivers = new ArrayList<>();
            for (int i = 0; i < bottlenecks.length; i++) {
                long join = start + 3 * SECOND + random.nextLong(SECOND);
                long own = seed * 1000 + i;
                receivers.add(session.receiver("r" + i, s -> Controllers.of(protocol, cfg(), s, own), join));
            }
            long end = start + seconds * SECOND;
            net.runUntil(end);
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < bottlenecks.length; i++) {
                ReceiverStats s = receivers.get(i).stats;
                // What the dispersion of a pair measures: the capacity, rounded up to whole nanoseconds per packet.
                long service = (8L * PACKET * SECOND + bottlenecks[i] - 1) / bottlenecks[i];
                // Less the loss-free headroom of the rules that leave one (ERA_RECOMMENDED's).
                int expected = layers.levelFor(8.0 * PACKET * SECOND / service * (1 - headroom(protocol)), true);
                long settled = s.settledAt(expected, 0, end);
                rows.add(new Row(bottlenecks[i], expected, s.levelAt(end),
                        settled < 0 ? Double.NaN : (settled - s.joinedAt) / 1e9,
                        s.throughput(start + seconds / 2 * SECOND, end), s.lossRate(),
                        settled < 0 ? -1 : s.changesAfter(settled)));
            }
            return rows;
        }
    }

    /** One receiver of the late-joiner experiment: when it joined, where it ended, how long it took. */
    record Joiner(double joinSeconds, int finalLevel, double settleSeconds, double lossRate) {
    }

    /**
     * ERA Exp. V: four receivers behind one 400 Kbit/s 20 ms bottleneck (exterior links 1 Mbit/s
     * 5 ms), two joining at 3 s, one at 20 s, one at 40 s; each should reach the level the shared
     * bottleneck carries (19 layers) and stay there, the late ones without disturbing the others.
     */
    static List<Joiner> lateJoiners(Protocol protocol, long seed, int seconds) {
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            for (String n : List.of("S", "R0", "R1", "e1", "e2", "e3", "e4")) {
                net.plainNode(n);
            }
            LinkSpec edge = link(1_000_000, 5, twiceBdp(1_000_000, 0.06));
            net.link("S", "R0", edge);
            net.link("R0", "R1", link(400_000, 20, twiceBdp(400_000, 0.06)));
            java.util.Map<String, String> parents = new java.util.HashMap<>(Map.of("R0", "S", "R1", "R0"));
            for (String e : List.of("e1", "e2", "e3", "e4")) {
                net.link("R1", e, edge);
                parents.put(e, "R1");
            }
            net.start();
            long start = Simulator.START_NANOS;
            LayeredSession session = new LayeredSession(net, "S", parents, LAYERS, senderCfg(protocol), start, 0, seed);
            long[] joins = {3, 3, 20, 40};
            List<LayeredSession.Receiver> receivers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                long join = start + joins[i] * SECOND + random.nextLong(SECOND / 2);
                long own = seed * 1000 + i;
                receivers.add(session.receiver("e" + (i + 1), s -> Controllers.of(protocol, cfg(), s, own), join));
            }
            long end = start + seconds * SECOND;
            net.runUntil(end);
            long service = (8L * PACKET * SECOND + 400_000 - 1) / 400_000;
            int expected = LAYERS.levelFor(8.0 * PACKET * SECOND / service, true);
            List<Joiner> out = new ArrayList<>();
            for (LayeredSession.Receiver r : receivers) {
                long settled = r.stats.settledAt(expected, 0, end);
                out.add(new Joiner((r.stats.joinedAt - start) / 1e9, r.stats.levelAt(end),
                        settled < 0 ? Double.NaN : (settled - r.stats.joinedAt) / 1e9, r.stats.lossRate()));
            }
            return out;
        }
    }

    /** The halving experiment: throughput before and after, how fast the level fell, and loss. */
    record Halving(double before, double after, double reactionSeconds, double peakLossRate, double lossRate,
            double peakSecond) {
    }

    /**
     * ERA Exp. II as the digest infers it: a 1 Mbit/s 10 ms bottleneck (exterior links 10 Mbit/s
     * 5 ms), the receiver joining at 3 s, and a 500 Kbit/s CBR flow across the bottleneck from 20 s,
     * halving what the session can have. Reaction: from 20 s until the level's rate is at most the
     * 500 Kbit/s left; peak loss: the worst whole second after the receiver joined.
     */
    static Halving halving(Protocol protocol, long seed, int seconds) {
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            for (String n : List.of("S", "C", "R0", "R1", "E")) {
                net.plainNode(n);
            }
            LinkSpec edge = link(10_000_000, 5, twiceBdp(10_000_000, 0.04));
            net.link("S", "R0", edge);
            net.link("C", "R0", edge);
            net.link("R0", "R1", link(1_000_000, 10, twiceBdp(1_000_000, 0.04)));
            net.link("R1", "E", edge);
            net.start();
            long start = Simulator.START_NANOS;
            LayeredSession session = new LayeredSession(net, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"), LAYERS,
                    senderCfg(protocol), start, 0, seed);
            LayeredSession.Receiver r = session.receiver("E", s -> Controllers.of(protocol, cfg(), s, seed * 1000),
                    start + 3 * SECOND + random.nextLong(SECOND / 2));
            long halvedAt = start + 20 * SECOND;
            long interval = 8L * PACKET * SECOND / 500_000;
            net.at(halvedAt, new net.hopwise.overlay.sim.Action() {
                @Override
                public void run(long now) {
                    net.direction("C", "R0").send(new CrossPacket(net), now);
                    net.simulator().schedule(now + interval, this);
                }
            });
            long end = start + seconds * SECOND;
            if (Boolean.getBoolean("layered.queuetrace")) {
                // Every 5 ms around the halving: the bottleneck's queue (packets) and its drops, for traces of the worst second.
                net.hopwise.overlay.sim.SimLink q = net.direction("R0", "R1");
                for (long t = halvedAt - SECOND / 10; t < halvedAt + SECOND; t += SECOND / 200) {
                    net.at(t, now -> System.out.printf(java.util.Locale.ROOT, "%.4f QUEUE %d drops %d%n", now / 1e9,
                            q.queueLength(), q.queueDrops()));
                }
            }
            net.runUntil(end);
            long reacted = -1;
            for (long t = halvedAt; t < end; t += SECOND / 100) {
                int level = r.stats.levelAt(t);
                if (level < 0 || LAYERS.cumulative(level) <= 500_000) {
                    reacted = t;
                    break;
                }
            }
            return new Halving(r.stats.throughput(halvedAt - 10 * SECOND, halvedAt),
                    r.stats.throughput(halvedAt + 5 * SECOND, end), reacted < 0 ? Double.NaN : (reacted - halvedAt) / 1e9,
                    r.stats.peakLossRate(r.stats.joinedAt + SECOND, end), r.stats.lossRate(),
                    // The worst second's start, from the cross traffic's (negative: before it).
                    (r.stats.peakLossSecond(r.stats.joinedAt + SECOND, end) * SECOND - halvedAt) / 1e9);
        }
    }

    /** A cross-traffic packet from C over R0 to R1, where it ends. */
    private static final class CrossPacket extends net.hopwise.overlay.sim.Packet {
        private final SimNetwork net;
        private boolean relayed;

        CrossPacket(SimNetwork net) {
            super(PACKET, 0x4342_5200L);
            this.net = net;
        }

        @Override
        protected void arrive(net.hopwise.overlay.sim.SimLink via, long now) {
            if (!relayed) {
                relayed = true;
                net.direction("R0", "R1").send(this, now);
            }
        }
    }

    /**
     * A layered session beside TCP Reno on one bottleneck, over the last half; with what each saw of
     * the loss: the multicast receiver's equation (mean of its decisions' loss rate), TCP's loss
     * events (fast retransmits and timeouts per segment sent) and its smoothed round trip.
     */
    record Share(double multicast, double tcp, double lossRate, double equationLoss, double tcpEventRate,
            double tcpRttSeconds) {
        /** The loss rate at which Padhye's equation (the receivers', 50 ms round trip) gives TCP's throughput. */
        double tcpImpliedLoss() {
            return TcpFriendlyRate.lossRateFor(tcp, 0.05, PACKET, 4);
        }

        double friendliness() {
            return multicast / tcp;
        }

        double jain() {
            return (multicast + tcp) * (multicast + tcp) / (2 * (multicast * multicast + tcp * tcp));
        }
    }

    /**
     * The thesis's ERA Exp. III dumbbell: exterior links 10 Mbit/s and 5 ms, a bottleneck of
     * {@code bottleneck} and 20 ms (DropTail 2 x BDP at a 60 ms RTT); the multicast source at 0 s
     * (its receiver 3 s later), TCP at 20 s, or the other way round; averages over the last half.
     */
    static Share withTcp(Protocol protocol, long seed, long bottleneck, boolean tcpFirst, int seconds) {
        return withTcp(protocol, seed, bottleneck, tcpFirst, seconds, 10_000_000);
    }

    /**
     * The same with exterior links of {@code edgeBps}: the thesis's trace ran 1 Mbit/s ones, which
     * space a pair's packets 4 ms apart before the bottleneck, so that cross traffic falls between
     * them far more often than behind 10 Mbit/s links (0.4 ms).
     */
    static Share withTcp(Protocol protocol, long seed, long bottleneck, boolean tcpFirst, int seconds, long edgeBps) {
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            for (String n : List.of("S", "T", "R0", "R1", "E", "D")) {
                net.plainNode(n);
            }
            LinkSpec edge = link(edgeBps, 5, twiceBdp(edgeBps, 0.06));
            net.link("S", "R0", edge);
            net.link("T", "R0", edge);
            net.link("R0", "R1", link(bottleneck, 20, twiceBdp(bottleneck, 0.06)));
            net.link("R1", "E", edge);
            net.link("R1", "D", edge);
            net.start();
            long start = Simulator.START_NANOS;
            long jitter = random.nextLong(SECOND / 2);
            long multicastAt = start + (tcpFirst ? 20 * SECOND : 0) + jitter;
            long tcpAt = start + (tcpFirst ? 0 : 20 * SECOND) + random.nextLong(SECOND / 2);
            LayeredSession session = new LayeredSession(net, "S", Map.of("R0", "S", "R1", "R0", "E", "R1"), LAYERS,
                    senderCfg(protocol), multicastAt, 0, seed);
            LayeredSession.Receiver receiver = session.receiver("E",
                    s -> Controllers.of(protocol, cfg(), s, seed * 1000), multicastAt + 3 * SECOND);
            TcpConfig tcpConfig = TcpConfig.builder().segmentBytes(PACKET - TcpConfig.DEFAULT_HEADER_BYTES)
                    .receiverWindow(2000).build();
            TcpFlow tcp = new TcpFlow(net, 1, TcpVariant.RENO, tcpConfig, net.path("T", "R0", "R1", "D"),
                    net.path("D", "R1", "R0", "T"), new DelayStatistics());
            tcp.bulk(tcpAt);
            long end = start + seconds * SECOND;
            long from = start + seconds / 2 * SECOND;
            long[] atFrom = new long[3];
            net.at(from, now -> {
                atFrom[0] = tcp.receiver().delivered();
                atFrom[1] = tcp.sender().segmentsSent();
                atFrom[2] = tcp.sender().fastRetransmits() + tcp.sender().timeouts();
            });
            double[] rttSum = new double[2];
            for (long t = from; t < end; t += SECOND / 10) {
                net.at(t, now -> {
                    rttSum[0] += tcp.sender().smoothedRttNanos() / 1e9;
                    rttSum[1]++;
                });
            }
            net.runUntil(end);
            double tcpBps = (tcp.receiver().delivered() - atFrom[0]) * 8.0 * PACKET / ((end - from) / 1e9);
            long sent = tcp.sender().segmentsSent() - atFrom[1];
            long events = tcp.sender().fastRetransmits() + tcp.sender().timeouts() - atFrom[2];
            double equation = receiver.controller.equationLoss().stream().filter(d -> d[0] >= from).mapToDouble(d -> d[1])
                    .average().orElse(Double.NaN);
            return new Share(receiver.stats.throughput(from, end), tcpBps, receiver.stats.lossRate(), equation,
                    sent == 0 ? Double.NaN : (double) events / sent, rttSum[0] / Math.max(1, rttSum[1]));
        }
    }
}
