package net.hopwise.multicast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The thesis's Cost-Benefit simulations (Danilov 2004, section 4.5) on the simulator, running the
 * unchanged module with the thesis's parameters. The figures' drawings are lost; what the text gives
 * is kept, the rest is chosen and said so:
 *
 * <p>S1: the tree A-B, B-C, B-D, B-E, E-F, E-G. Class S_acfg: 20 clients on A sending to members on C,
 * F and G; class S_cdg: 20 clients on C sending to members on D and G; they share B-C, B-E and E-G. The
 * bottlenecks are E-F at 2 Mbit/s (S_acfg's) and B-D at 1 Mbit/s (S_cdg's), every other link 10 Mbit/s
 * (the text: "no other bottleneck links"). Delays: A-B 15 ms and B-E 10 ms (the text's 25 ms feedback
 * delay from E to A), B-C 10 ms (the text's 10 ms from B to C), B-D 10 ms, E-F and E-G 5 ms (chosen).
 * Queues at the wires are ns-2's default DropTail of 50 packets, as the thesis's simulations had.
 */
final class CostBenefitScenarios {
    static final long MBIT = 1_000_000L;
    /** 1000-byte messages, one packet each: ns-2's default packet size. */
    static final int PAYLOAD = 1000;

    private static final Map<NodeId, String> NAMES = new java.util.HashMap<>();

    static {
        for (String n : List.of("a", "b", "c", "d", "e", "f", "g")) {
            NAMES.put(NodeId.ofName(n), n);
        }
    }

    private CostBenefitScenarios() {}

    /**
     * IPv4 and UDP headers, which the simulator's wire carries in front of each overlay datagram (as a
     * real link does) and which a packet's share of a link must count.
     */
    static final int IP_UDP = 28;
    /** A client's packet on the wire beyond its group datagram: channel header, overlay wire header, IPv4 and UDP. */
    static final int PER_PACKET = ChannelAck.DATA_HEADER + WireHeader.LENGTH + IP_UDP;

    /** One class of clients' sending throughput over the measured span. */
    record ClassRate(String name, int clients, double wireMbps, double payloadMbps, double spreadPercent,
            long packets) {}

    /**
     * What a run measured.
     *
     * @param efMbps what the E-F wire carried over the span, every packet included (data, control, link state)
     * @param bdMbps the same for B-D
     * @param egMbps the same for E-G
     * @param efControlPerSecond datagrams per second the E-F wire carried over the span that were not
     *     S_acfg's messages delivered at F: hellos, link state, cost updates on their own, resends
     * @param bdControlPerSecond the same for B-D and S_cdg's messages delivered at D
     * @param seconds the span
     * @param receivedMbps per group and member node ("acfg@f"), the messages delivered there over the
     *     span, each counted as its packet on the wire: what crossed the bottleneck, free of the
     *     buffers' drift that a sending rate over a finite span includes
     * @param updateKbps per link ("e-f"), the cost updates that rode on its packets over the span
     */
    record S1Result(ClassRate acfg, ClassRate cdg, Map<String, Integer> peakBuffers, long blockedSends, double efMbps,
            double bdMbps, double egMbps, double efControlPerSecond, double bdControlPerSecond, double seconds,
            Map<String, Double> receivedMbps, Map<String, Double> updateKbps) {}

    /** A client that sends its next message whenever its sender becomes writable again. */
    static final class GreedyClient {
        final GroupSender sender;
        final byte[] payload = new byte[PAYLOAD];

        GreedyClient(GroupSender sender) {
            this.sender = sender;
            sender.onWritable(this::next);
        }

        void next() {
            while (sender.writable() && sender.send(payload).accepted()) {
                if (!sender.writable()) {
                    return;
                }
            }
        }
    }

    /** The parameters the scenarios run with: the defaults, unless an experiment asks for others. */
    private static CostBenefitConfig scenarioConfig = CostBenefitConfig.thesis();

    /** Runs every scenario after this with {@code config} (an experiment's comparison, such as the literal T_max rule). */
    static void useConfig(CostBenefitConfig config) {
        scenarioConfig = config;
    }

    static MulticastModule module() {
        return module(scenarioConfig);
    }

    static MulticastModule module(CostBenefitConfig config) {
        return new MulticastModule().withCostBenefit(config);
    }

    static LinkSpec link(long bitsPerSecond, int delayMillis) {
        return LinkSpec.builder().bandwidthBitsPerSecond(bitsPerSecond).delay(Duration.ofMillis(delayMillis)).build();
    }

    /**
     * Runs S1: {@code warmup} with the routes settling and the clients starting, then {@code measured}
     * over which each class's sending throughput is taken.
     */
    static S1Result s1(long seed, Duration warmup, Duration measured) {
        return s1(seed, warmup, measured, scenarioConfig);
    }

    static S1Result s1(long seed, Duration warmup, Duration measured, CostBenefitConfig config) {
        return run(seed, warmup, measured, config, MBIT, 2 * MBIT, 10 * MBIT);
    }

    /**
     * S2: the same tree and classes with E-G the bottleneck of both at 2 Mbit/s (the thesis's two flows
     * sum to its 2 Mbit/s, and it is later "changed to 1 Mbit/s"), B-D and E-F no longer bottlenecks.
     * Thesis: 997.3 and 997.6 Kbit/s, the clients within 4.6% of each other.
     */
    static S1Result s2(long seed, Duration warmup, Duration measured) {
        return run(seed, warmup, measured, scenarioConfig, 10 * MBIT, 10 * MBIT, 2 * MBIT);
    }

    private static S1Result run(long seed, Duration warmup, Duration measured, CostBenefitConfig config, long bdRate,
            long efRate, long egRate) {
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(module(config)))) {
            for (String n : List.of("a", "b", "c", "d", "e", "f", "g")) {
                net.node(n);
            }
            net.link("a", "b", link(10 * MBIT, 15));
            net.link("b", "c", link(10 * MBIT, 10));
            net.link("b", "d", link(bdRate, 10));
            net.link("b", "e", link(10 * MBIT, 10));
            net.link("e", "f", link(efRate, 5));
            net.link("e", "g", link(egRate, 5));
            net.start();
            net.runFor(Duration.ofSeconds(20));
            Map<String, long[]> delivered = new LinkedHashMap<>();
            for (String m : List.of("c", "f", "g")) {
                long[] count = delivered.computeIfAbsent("acfg@" + m, k -> new long[1]);
                net.nodeNamed(m).interact(s -> s.module(Multicast.class).join("acfg", 9, msg -> count[0]++));
            }
            for (String m : List.of("d", "g")) {
                long[] count = delivered.computeIfAbsent("cdg@" + m, k -> new long[1]);
                net.nodeNamed(m).interact(s -> s.module(Multicast.class).join("cdg", 9, msg -> count[0]++));
            }
            net.runFor(Duration.ofSeconds(2));
            List<GreedyClient> acfg = clients(net, "a", "acfg", 20);
            List<GreedyClient> cdg = clients(net, "c", "cdg", 20);
            net.runFor(warmup);
            long[] acfgStart = counts(acfg);
            long[] cdgStart = counts(cdg);
            long ef = carried(net, "e", "f");
            long bd = carried(net, "b", "d");
            long eg = carried(net, "e", "g");
            Map<String, Long> deliveredStart = new LinkedHashMap<>();
            delivered.forEach((k, v) -> deliveredStart.put(k, v[0]));
            Map<String, Long> updatesStart = updateBytes(net);
            long efPackets = net.direction("e", "f").packetsSent();
            long bdPackets = net.direction("b", "d").packetsSent();
            Map<String, Integer> peaks = new LinkedHashMap<>();
            long end = net.now() + measured.toNanos();
            // Sample the buffers at each cost update: LinkBuffer.peak is the longest since the last one.
            while (net.now() < end) {
                net.runFor(Duration.ofMillis(50));
                for (String n : List.of("a", "b", "c", "e")) {
                    for (LinkBuffer lb : net.engine(n).module(Multicast.class).linkBuffers()) {
                        String name = n + "-" + NAMES.getOrDefault(lb.neighbour(), lb.neighbour().toString());
                        peaks.merge(name, lb.peak(), Math::max);
                    }
                }
            }
            double seconds = measured.toNanos() / 1e9;
            long blocked = 0;
            for (GreedyClient c : acfg) {
                blocked += c.sender.statistics().blocked();
            }
            for (GreedyClient c : cdg) {
                blocked += c.sender.statistics().blocked();
            }
            Map<String, Double> received = new LinkedHashMap<>();
            delivered.forEach((k, v) -> received.put(k,
                    (v[0] - deliveredStart.get(k)) * (PAYLOAD + MulticastPacket.HEADER + PER_PACKET) * 8 / seconds / 1e6));
            Map<String, Double> updates = new LinkedHashMap<>();
            updateBytes(net).forEach((k, v) -> updates.put(k, (v - updatesStart.getOrDefault(k, 0L)) * 8 / seconds / 1e3));
            return new S1Result(rate("S_acfg", acfg, acfgStart, seconds), rate("S_cdg", cdg, cdgStart, seconds), peaks,
                    blocked, (carried(net, "e", "f") - ef) * 8 / seconds / 1e6, (carried(net, "b", "d") - bd) * 8 / seconds / 1e6,
                    (carried(net, "e", "g") - eg) * 8 / seconds / 1e6,
                    (net.direction("e", "f").packetsSent() - efPackets - (delivered.get("acfg@f")[0]
                            - deliveredStart.get("acfg@f"))) / seconds,
                    (net.direction("b", "d").packetsSent() - bdPackets - (delivered.get("cdg@d")[0]
                            - deliveredStart.get("cdg@d"))) / seconds, seconds, received, updates);
        }
    }

    /**
     * S2's variant (figures 4.7-4.8): S_acfg alone on E-G at 2 Mbit/s, S_cdg's 20 clients starting
     * together after {@code phase}, and E-G halved to 1 Mbit/s after another (the thesis's phases are
     * 200 s). Per second, each class's messages delivered at G (counted as their packets on the wire);
     * per phase, the peak of E-G's buffer.
     *
     * @param acfg S_acfg's rate per second from the clients' start
     * @param cdg S_cdg's, 0 before its start
     * @param peaks E-G's peak buffer in each of the three phases
     */
    record S2Variant(int phaseSeconds, double[] acfg, double[] cdg, int[] peaks) {
        /**
         * Seconds from the start of {@code phase} (1: S_cdg starts, 2: E-G halved) until S_acfg's rate
         * is within 10% of its fair share {@code fairMbps} and stays there for five seconds; -1 if never.
         */
        int response(int phase, double fairMbps) {
            int from = phase * phaseSeconds;
            for (int t = from; t + 5 <= Math.min(acfg.length, from + phaseSeconds); t++) {
                boolean settled = true;
                for (int k = t; k < t + 5; k++) {
                    settled &= Math.abs(acfg[k] - fairMbps) <= 0.1 * fairMbps;
                }
                if (settled) {
                    return t - from + 1;
                }
            }
            return -1;
        }

        /** Each class's mean rate over the second half of a phase. */
        double[] settled(int phase) {
            double a = 0;
            double c = 0;
            int from = phase * phaseSeconds + phaseSeconds / 2;
            int to = (phase + 1) * phaseSeconds;
            for (int t = from; t < to; t++) {
                a += acfg[t] / (to - from);
                c += cdg[t] / (to - from);
            }
            return new double[] {a, c};
        }
    }

    static S2Variant s2Variant(long seed, int phaseSeconds) {
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(module()))) {
            for (String n : List.of("a", "b", "c", "d", "e", "f", "g")) {
                net.node(n);
            }
            net.link("a", "b", link(10 * MBIT, 15));
            net.link("b", "c", link(10 * MBIT, 10));
            net.link("b", "d", link(10 * MBIT, 10));
            net.link("b", "e", link(10 * MBIT, 10));
            net.link("e", "f", link(10 * MBIT, 5));
            net.link("e", "g", link(2 * MBIT, 5));
            net.start();
            net.runFor(Duration.ofSeconds(20));
            long[] atG = new long[2];
            for (String m : List.of("c", "f", "g")) {
                net.nodeNamed(m).interact(st -> st.module(Multicast.class).join("acfg", 9, msg -> {
                    if (m.equals("g")) {
                        atG[0]++;
                    }
                }));
            }
            for (String m : List.of("d", "g")) {
                net.nodeNamed(m).interact(st -> st.module(Multicast.class).join("cdg", 9, msg -> {
                    if (m.equals("g")) {
                        atG[1]++;
                    }
                }));
            }
            net.runFor(Duration.ofSeconds(2));
            clients(net, "a", "acfg", 20);
            int seconds = 3 * phaseSeconds;
            double[] acfg = new double[seconds];
            double[] cdg = new double[seconds];
            int[] peaks = new int[3];
            NodeId g = NodeId.ofName("g");
            double perMessage = (PAYLOAD + MulticastPacket.HEADER + PER_PACKET) * 8 / 1e6;
            for (int t = 0; t < seconds; t++) {
                if (t == phaseSeconds) {
                    clients(net, "c", "cdg", 20);
                } else if (t == 2 * phaseSeconds) {
                    net.changeLink("e", "g", link(MBIT, 5));
                    net.changeLink("g", "e", link(MBIT, 5));
                }
                long a0 = atG[0];
                long c0 = atG[1];
                for (int k = 0; k < 20; k++) {
                    net.runFor(Duration.ofMillis(50));
                    for (LinkBuffer lb : net.engine("e").module(Multicast.class).linkBuffers()) {
                        if (lb.neighbour().equals(g)) {
                            peaks[t / phaseSeconds] = Math.max(peaks[t / phaseSeconds], lb.peak());
                        }
                    }
                }
                acfg[t] = (atG[0] - a0) * perMessage;
                cdg[t] = (atG[1] - c0) * perMessage;
            }
            return new S2Variant(phaseSeconds, acfg, cdg, peaks);
        }
    }

    /**
     * {@code n} clients on a node, each starting at a random instant of the first second (seeded by
     * the network): the thesis's clients are separate processes, not one started in lockstep.
     */
    /**
     * S3 (figures 4.9-4.11): the chain A-B-C-D-E-F of five 2 Mbit/s links (inferred from the thesis's
     * 10 Mbit/s maximum and 1 Mbit/s fair share), 10 ms each (chosen); one client A -> F, then the
     * one-link clients A -> B, B -> C, C -> D, D -> E, E -> F starting {@code stagger} apart, each
     * sending to a group whose only member is the next node. Thesis: with all started the A -> F
     * client gets about nothing and the aggregate is 9.677 of 10 Mbit/s.
     *
     * @return per phase (after each start, measured over its last half), the rate of each started
     *     client in Mbit/s on the wire, A -> F first
     */
    static List<double[]> s3(long seed, Duration stagger) {
        List<String> chain = List.of("a", "b", "c", "d", "e", "f");
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(module()))) {
            chain.forEach(net::node);
            for (int i = 0; i + 1 < chain.size(); i++) {
                net.link(chain.get(i), chain.get(i + 1), link(2 * MBIT, 10));
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
            List<List<GreedyClient>> flows = new ArrayList<>();
            flows.add(clients(net, "a", "a-f", 1));
            List<double[]> phases = new ArrayList<>();
            for (int phase = 0; phase <= 5; phase++) {
                if (phase > 0) {
                    String from = chain.get(phase - 1);
                    flows.add(clients(net, from, from + "-" + chain.get(phase), 1));
                }
                net.runFor(stagger.dividedBy(2));
                List<long[]> start = new ArrayList<>();
                for (List<GreedyClient> f : flows) {
                    start.add(counts(f));
                }
                net.runFor(stagger.dividedBy(2));
                double[] rates = new double[flows.size()];
                for (int i = 0; i < flows.size(); i++) {
                    rates[i] = rate("flow", flows.get(i), start.get(i), stagger.toNanos() / 2e9).wireMbps();
                }
                phases.add(rates);
            }
            return phases;
        }
    }

    static List<GreedyClient> clients(SimNetwork net, String node, String group, int n) {
        List<GreedyClient> clients = new ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(net.seed() * 31 + group.hashCode());
        for (int i = 0; i < n; i++) {
            net.nodeNamed(node).interact(s -> clients.add(
                    new GreedyClient(s.module(Multicast.class).sender(group, 9, RoutingMetric.LATENCY))));
        }
        for (GreedyClient c : clients) {
            net.at(net.now() + random.nextLong(1_000_000_000L), t -> net.nodeNamed(node).interact(s -> c.next()));
        }
        return clients;
    }

    /** Packets and body bytes of each client so far, in pairs. */
    static long[] counts(List<GreedyClient> clients) {
        long[] c = new long[2 * clients.size()];
        for (int i = 0; i < clients.size(); i++) {
            SenderStatistics s = clients.get(i).sender.statistics();
            c[2 * i] = s.packets();
            c[2 * i + 1] = s.bytes();
        }
        return c;
    }

    /**
     * A class's sending rate: on the wire (each packet as the wire carries it, what a link's capacity is
     * spent on, as ns-2 counts a packet: 1000 bytes of payload, the 30-byte multicast header, the 8-byte
     * channel header, the 28-byte overlay wire header and 28 bytes of IPv4 and UDP, 1094 bytes; cost
     * updates riding on a packet are control, not the client's) and in payload bytes; and how far apart
     * its clients are (the standard deviation of their rates over their mean).
     */
    static ClassRate rate(String name, List<GreedyClient> clients, long[] start, double seconds) {
        long[] now = counts(clients);
        double wire = 0;
        double payload = 0;
        long total = 0;
        double[] each = new double[clients.size()];
        for (int i = 0; i < clients.size(); i++) {
            long packets = now[2 * i] - start[2 * i];
            long bytes = now[2 * i + 1] - start[2 * i + 1];
            wire += bytes + packets * PER_PACKET;
            total += packets;
            payload += bytes - packets * MulticastPacket.HEADER;
            each[i] = bytes;
        }
        double mean = 0;
        for (double e : each) {
            mean += e / each.length;
        }
        double var = 0;
        for (double e : each) {
            var += (e - mean) * (e - mean) / each.length;
        }
        return new ClassRate(name, clients.size(), wire * 8 / seconds / 1e6, payload * 8 / seconds / 1e6,
                mean > 0 ? 100 * Math.sqrt(var) / mean : 0, total);
    }

    /** Bytes of cost updates that rode on each flow-controlled link's packets so far, by link ("e-f"). */
    static Map<String, Long> updateBytes(SimNetwork net) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String n : NAMES.values()) {
            for (LinkBuffer lb : net.engine(n).module(Multicast.class).linkBuffers()) {
                out.put(n + "-" + NAMES.getOrDefault(lb.neighbour(), lb.neighbour().toString()), lb.updateBytes());
            }
        }
        return out;
    }

    /** The bytes a simulated link carried, for cross-checks of the clients' counts. */
    static long carried(SimNetwork net, String from, String to) {
        SimLink l = net.direction(from, to);
        return l.bytesSent();
    }
}
