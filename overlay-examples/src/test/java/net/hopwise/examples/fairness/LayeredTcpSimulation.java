package net.hopwise.examples.fairness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import net.hopwise.examples.reliable.BenchmarkSection;
import net.hopwise.multicast.layered.EraConfig;
import net.hopwise.multicast.layered.EraReceiver;
import net.hopwise.multicast.layered.EraSender;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredOutput;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.RttEstimator;
import net.hopwise.multicast.layered.SessionAnnouncement;
import net.hopwise.overlay.sim.AgentTimer;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.Packet;
import net.hopwise.overlay.sim.QueueDiscipline;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;
import net.hopwise.overlay.sim.tcp.TcpVariant;

/**
 * The live benchmark's question asked of the simulator, traced the same way: one ERA session and
 * one TCP Reno flow through a DropTail bottleneck ({@code S, T - R0 - R1 - E, D}), the receiver's
 * decisions and, every 200 ms, the queue and TCP's round trip, window, retransmissions and segments
 * in the lines {@link LayeredTcpBenchmark}'s trace writes, reduced by the same {@link TraceSummary}.
 * On virtual time, so its figures do not depend on the machine.
 *
 * <p>It also asks what the simulator's own experiments leave fixed: the round trip ERA's equation
 * uses ({@code --rtt}): {@code fixed50}, the constant 50 ms of the thesis's trace and of the
 * simulator's ERA rows; {@code forward}, the path's smallest one-way delay plus the smoothed one-way
 * delay ({@link RttEstimator#forwardQueue}), which is what a round trip through the bottleneck's
 * queue is, as the live receiver's overlay round trip is; {@code twice}, twice the smoothed one-way
 * delay ({@link RttEstimator#fromTimestamps}), the thesis's text.
 *
 * <p>Defaults: the simulator's ERA Exp. III (400 Kbit/s 20 ms bottleneck, a queue of 12 packets,
 * 10 Mbit/s 5 ms exterior links, 100 layers of 20 Kbit/s, 512-byte packets in pairs). Arguments:
 * {@code --bottleneck-bps}, {@code --bottleneck-ms}, {@code --queue-packets}, {@code --edge-bps},
 * {@code --edge-ms}, {@code --layers}, {@code --layer-bps}, {@code --packet}, {@code --seconds}
 * (200), {@code --seeds} (3), {@code --first multicast|tcp|both} (both), {@code --rules} (as
 * {@link LayeredTcpPeer#rules}; fair,thesis), {@code --rtt} (comma-separated; fixed50,forward),
 * {@code --trace DIR} (each run's receiver decisions, as the live benchmark's {@code --trace} writes them).
 * The second flow starts a quarter of the run after the first; averages over the last half.
 */
public final class LayeredTcpSimulation {
    private static final long SECOND = 1_000_000_000L;

    private LayeredTcpSimulation() {}

    /** The topology and the session; everything but the rules, the round trip and the seed. */
    record Setup(long bottleneckBps, double bottleneckMs, int queuePackets, long edgeBps, double edgeMs, int layers,
            long layerBps, int packetBytes, int seconds) {
        Setup {
            if (edgeBps <= bottleneckBps || queuePackets < 1 || seconds < 8 || packetBytes < 100) {
                throw new IllegalArgumentException("the exterior links must be faster than the bottleneck, the queue"
                        + " at least one packet, the run at least 8 s and packets at least 100 bytes");
            }
        }

        /** The path's round trip without queues. */
        double baseRttSeconds() {
            return 2 * (2 * edgeMs + bottleneckMs) / 1000;
        }
    }

    public static void main(String[] args) throws java.io.IOException {
        Setup setup = new Setup(Long.parseLong(BenchmarkSection.argument(args, "--bottleneck-bps", "400000")),
                Double.parseDouble(BenchmarkSection.argument(args, "--bottleneck-ms", "20")),
                Integer.parseInt(BenchmarkSection.argument(args, "--queue-packets", "12")),
                Long.parseLong(BenchmarkSection.argument(args, "--edge-bps", "10000000")),
                Double.parseDouble(BenchmarkSection.argument(args, "--edge-ms", "5")),
                Integer.parseInt(BenchmarkSection.argument(args, "--layers", "100")),
                Long.parseLong(BenchmarkSection.argument(args, "--layer-bps", "20000")),
                Integer.parseInt(BenchmarkSection.argument(args, "--packet", "512")),
                Integer.parseInt(BenchmarkSection.argument(args, "--seconds", "200")));
        int seeds = Integer.parseInt(BenchmarkSection.argument(args, "--seeds", "3"));
        String first = BenchmarkSection.argument(args, "--first", "both");
        List<String> rules = List.of(BenchmarkSection.argument(args, "--rules", "fair,thesis").split(","));
        List<String> rtts = List.of(BenchmarkSection.argument(args, "--rtt", "fixed50,forward").split(","));
        String traceDir = BenchmarkSection.argument(args, "--trace", "");
        rules.forEach(LayeredTcpPeer::rules);
        System.out.println(setup + "; TCP Reno; last half");
        for (String order : first.equals("both") ? List.of("multicast", "tcp") : List.of(first)) {
            for (String rule : rules) {
                for (String rtt : rtts) {
                    List<Double> f = new ArrayList<>();
                    for (long seed = 1; seed <= seeds; seed++) {
                        List<String> decisions = new ArrayList<>();
                        List<String> queue = new ArrayList<>();
                        double[] rates = run(setup, rule, rtt, order.equals("tcp"), seed, decisions, queue);
                        TraceSummary s = TraceSummary.of(decisions, queue, setup.seconds() / 2.0, setup.seconds(),
                                setup.bottleneckBps(), LayeredTcpPeer.rules(rule).lossWindowNanos() / 1e9);
                        f.add(rates[0] / rates[1]);
                        if (!traceDir.isEmpty()) {
                            java.nio.file.Files.write(java.nio.file.Files.createDirectories(java.nio.file.Path.of(traceDir))
                                    .resolve(order + "-" + rule + "-" + rtt + "-" + seed + ".decisions"), decisions);
                        }
                        System.out.printf(Locale.ROOT, "%s first, %s, rtt %s, seed %d: layered %.0f, TCP %.0f bit/s,"
                                + " F %.2f, Jain %.3f; %s%n", order, rule, rtt, seed, rates[0], rates[1],
                                rates[0] / rates[1], JainIndex.of(rates), s.line());
                    }
                    System.out.printf(Locale.ROOT, "median, %s first, %s, rtt %s: F %.2f%n", order, rule, rtt,
                            LayeredTcpBenchmark.median(f.stream().mapToDouble(Double::doubleValue).toArray()));
                }
            }
        }
    }

    /** The round trip ERA's equation uses, by name. */
    static RttEstimator rtt(String name) {
        return switch (name) {
            case "fixed50" -> RttEstimator.fixed(Duration.ofMillis(50));
            case "forward" -> RttEstimator.forwardQueue(Duration.ZERO, Duration.ofMillis(50));
            case "twice" -> RttEstimator.fromTimestamps(Duration.ZERO, Duration.ofMillis(50));
            default -> throw new IllegalArgumentException("unknown rtt " + name + "; fixed50, forward or twice");
        };
    }

    /**
     * One run; fills {@code decisions} and {@code queue} with trace lines (seconds since the start).
     *
     * @return the layered session's and TCP's bit/s over the last half
     */
    static double[] run(Setup s, String rules, String rttName, boolean tcpFirst, long seed, List<String> decisions,
            List<String> queue) {
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            for (String n : List.of("S", "T", "R0", "R1", "E", "D")) {
                net.plainNode(n);
            }
            LinkSpec edge = link(s.edgeBps(), s.edgeMs(), 1000);
            for (String[] l : new String[][] {{"S", "R0"}, {"T", "R0"}, {"R1", "E"}, {"R1", "D"}}) {
                net.link(l[0], l[1], edge);
            }
            net.link("R0", "R1", link(s.bottleneckBps(), s.bottleneckMs(), s.queuePackets()));
            net.start();
            Simulator sim = net.simulator();
            long start = Simulator.START_NANOS;
            long quarter = s.seconds() * SECOND / 4;
            long multicastAt = start + (tcpFirst ? quarter : 0) + random.nextLong(SECOND / 2);
            long tcpAt = start + (tcpFirst ? 0 : quarter) + random.nextLong(SECOND / 2);
            SimLink[] down = net.path("S", "R0", "R1", "E");
            SimLink bottleneck = net.direction("R0", "R1");
            // A graft or prune takes effect at the source once it has crossed the path back.
            long upNanos = (long) ((2 * s.edgeMs() + s.bottleneckMs()) * 1e6);
            boolean[] held = new boolean[s.layers()];
            EraReceiver[] receiver = new EraReceiver[1];
            AgentTimer[] timer = new AgentTimer[1];
            long[] layeredBytes = new long[1];
            Runnable settle = () -> timer[0].update(receiver[0].nextDeadlineNanos());
            EraConfig senderConfig = EraConfig.builder().packetBytes(s.packetBytes()).build();
            LayerRates layers = LayerRates.equal(s.layers(), s.layerBps());
            EraSender sender = new EraSender(1, 1, layers, senderConfig, 0, multicastAt, new LayeredOutput() {
                @Override
                public void data(LayeredPacket p, long now) {
                    if (held[p.layer()]) {
                        hop(down, 0, s.packetBytes(), now, t -> {
                            layeredBytes[0] += s.packetBytes();
                            receiver[0].onPacket(p, t);
                            settle.run();
                        });
                    }
                }

                @Override
                public void announce(SessionAnnouncement a, long now) {
                    hop(down, 0, a.encodedLength(), now, t -> {
                        receiver[0].onAnnouncement(a, t);
                        settle.run();
                    });
                }
            }, seed);
            AgentTimer[] senderTimerRef = new AgentTimer[1];
            senderTimerRef[0] = new AgentTimer(sim, 910_001, now -> {
                sender.onTimer(now);
                senderTimerRef[0].update(sender.nextDeadlineNanos());
            });
            senderTimerRef[0].update(sender.nextDeadlineNanos());
            EraConfig config = LayeredTcpPeer.rules(rules).toBuilder().packetBytes(s.packetBytes()).build();
            receiver[0] = new EraReceiver(1, config, rtt(rttName), new LayerSubscriber() {
                @Override
                public void join(int layer, long now) {
                    sim.schedule(now + upNanos, t -> held[layer] = true);
                }

                @Override
                public void leave(int layer, long now) {
                    sim.schedule(now + upNanos, t -> held[layer] = false);
                }
            }, d -> decisions.add(LayeredTcpPeer.decisionLine(d, start)));
            timer[0] = new AgentTimer(sim, 910_002, now -> {
                receiver[0].onTimer(now);
                settle.run();
            });
            // The application joins three seconds after the source starts, as in the simulator's rows.
            sim.schedule(multicastAt + 3 * SECOND, now -> {
                receiver[0].join(now);
                settle.run();
            });
            TcpConfig tcpConfig = TcpConfig.builder().segmentBytes(s.packetBytes() - TcpConfig.DEFAULT_HEADER_BYTES)
                    .receiverWindow(2000).build();
            TcpFlow tcp = new TcpFlow(net, 1, TcpVariant.RENO, tcpConfig, net.path("T", "R0", "R1", "D"),
                    net.path("D", "R1", "R0", "T"), new DelayStatistics());
            tcp.bulk(tcpAt);
            long end = start + s.seconds() * SECOND;
            long from = start + s.seconds() / 2 * SECOND;
            long[] atFrom = new long[2];
            net.at(from, now -> {
                atFrom[0] = tcp.receiver().delivered();
                atFrom[1] = layeredBytes[0];
            });
            for (long t = start; t < end; t += SECOND / 5) {
                net.at(t, now -> queue.add(String.format(Locale.ROOT, "t=%.3f drops=%d backlog=%d tcp_rtt=%.1f"
                        + " tcp_cwnd=%d tcp_retrans=%d tcp_segs=%d", (now - start) / 1e9, bottleneck.queueDrops(),
                        (long) bottleneck.queueLength() * s.packetBytes(), tcp.sender().smoothedRttNanos() / 1e6,
                        (int) tcp.sender().congestionWindow(), tcp.sender().retransmissions(),
                        tcp.sender().segmentsSent())));
            }
            net.runUntil(end);
            double span = (end - from) / 1e9;
            return new double[] {(layeredBytes[0] - atFrom[1]) * 8.0 / span,
                    (tcp.receiver().delivered() - atFrom[0]) * 8.0 * s.packetBytes() / span};
        }
    }

    private static LinkSpec link(long bps, double delayMs, int queuePackets) {
        return LinkSpec.builder().bandwidthBitsPerSecond(bps).delayMillis(delayMs)
                .queue(new QueueDiscipline.DropTail(queuePackets)).build();
    }

    /** Sends a packet down {@code path} from link {@code i}, running {@code atEnd} where the path ends. */
    private static void hop(SimLink[] path, int i, int bytes, long now, net.hopwise.overlay.sim.Action atEnd) {
        path[i].send(new Packet(bytes, 1) {
            @Override
            protected void arrive(SimLink via, long t) {
                if (i + 1 == path.length) {
                    atEnd.run(t);
                } else {
                    hop(path, i + 1, bytes, t, atEnd);
                }
            }
        }, now);
    }
}
