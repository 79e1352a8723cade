package net.hopwise.examples.reliable;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.reliable.ReliableLinkConfig;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The paper's latency experiment (Amir and Danilov, DSN 2003, Fig. 6 and 14): a chain a-b-c-d-e-f
 * of five 10 ms links on loopback UDP, the impairment handler losing 1% of the packets on the
 * middle link c-d (both directions), and a constant-rate source at a sending 1000-byte messages at
 * 500 Kbit/s over a reliable session to f. Delay is delivery time minus the time the source meant
 * to send the message (sender buffering included). Run twice on the same code: with hop-by-hop
 * recovery, and with links that give up on losses so that only the session recovers them.
 *
 * <pre>
 * ./mvnw -q -pl overlay-examples -am test-compile exec:java \
 *   -Dexec.mainClass=net.hopwise.examples.reliable.ChainLatencyBenchmark \
 *   -Dexec.args="--seconds 60 --docs docs/benchmarks.md"
 * </pre>
 */
public final class ChainLatencyBenchmark {
    private static final List<String> NAMES = List.of("a", "b", "c", "d", "e", "f");
    private static final int MESSAGE = 1000;

    private ChainLatencyBenchmark() {}

    record Result(String mode, int sent, int delivered, boolean inOrder, double avg, double jitter, double over60,
            double over100, double p50, double p99, double max, int lateEpisodes, long lossyRetransmissions, long linkRetransmissions,
            long sessionRetransmissions, long tailProbes) {}

    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(BenchmarkSection.argument(args, "--seconds", "60"));
        int kbps = Integer.parseInt(BenchmarkSection.argument(args, "--rate-kbps", "500"));
        double loss = Double.parseDouble(BenchmarkSection.argument(args, "--loss", "0.01"));
        String docs = BenchmarkSection.argument(args, "--docs", null);
        List<Result> results = new ArrayList<>();
        // The first seconds of a JVM run slower (the JIT is at work): one unreported run first, so that
        // no row is measured cold.
        run("warm-up", true, true, 10, kbps, loss);
        List<String> modes = List.of(BenchmarkSection.argument(args, "--modes", "hop-by-hop,no-probes,end-to-end")
                .split(","));
        for (String m : modes) {
            switch (m.trim()) {
                case "hop-by-hop" -> results.add(run("hop-by-hop recovery", true, true, seconds, kbps, loss));
                case "no-probes" -> results.add(run("hop-by-hop recovery, no tail probes", true, false, seconds, kbps,
                        loss));
                case "end-to-end" -> results.add(run("end-to-end recovery only", false, false, seconds, kbps, loss));
                default -> throw new IllegalArgumentException("unknown mode " + m
                        + "; --modes takes hop-by-hop, no-probes, end-to-end");
            }
        }

        StringBuilder t = new StringBuilder();
        t.append("| recovery | messages | delivered | in order | avg delay ms | jitter ms | > 60 ms | > 100 ms"
                + " | p50 ms | p99 ms | max ms | late episodes | link resends c→d | other link resends | session resends"
                + " | tail probes |\n");
        t.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            t.append(String.format("| %s | %d | %d | %s | %.2f | %.2f | %.2f%% | %.2f%% | %.1f | %.1f | %.1f | %d | %d | %d | %d | %d |%n",
                    r.mode, r.sent, r.delivered, r.inOrder ? "yes" : "NO", r.avg, r.jitter, r.over60, r.over100, r.p50,
                    r.p99, r.max, r.lateEpisodes, r.lossyRetransmissions, r.linkRetransmissions - r.lossyRetransmissions,
                    r.sessionRetransmissions, r.tailProbes));
        }
        t.append("| paper, hop-by-hop (ns2, Fig. 6) | | | | | | ~3% | ~1% | | | | | | | | |\n");
        t.append("| paper, end-to-end TCP (ns2, Fig. 6) | | | | | | > 27% | ~18% | | | | | | | | |\n");
        System.out.println(t);
        if (docs != null) {
            String body = "### Latency over the paper's chain of five 10 ms links (1% loss on the middle link)\n\n"
                    + BenchmarkSection.provenance("./mvnw -q -pl overlay-examples -am test-compile exec:java"
                            + " -Dexec.mainClass=net.hopwise.examples.reliable.ChainLatencyBenchmark"
                            + " -Dexec.args=\"--seconds " + seconds + " --rate-kbps " + kbps + " --loss " + loss
                            + " --docs docs/benchmarks.md\"")
                    + "\nSix nodes a-f in one JVM on loopback UDP, every link delayed 10 ms each way by the impairment"
                    + " handler, " + (loss * 100) + "% Bernoulli loss on c-d in both directions; a reliable session a"
                    + " to f carries " + MESSAGE + "-byte messages at " + kbps + " Kbit/s for " + seconds + " s per row, after one unreported"
                    + " 10 s run that warms the JVM. Delay ="
                    + " delivery at f minus the instant the constant-rate source meant to send (one clock). The"
                    + " second row turns the links' tail probes off (`ReliableLinkConfig.tailProbe(false)`): a lone"
                    + " packet still unacknowledged a quarter of a round trip after it left is otherwise sent once"
                    + " more, so that a loss costs a quarter of a round trip, not more than one; 'tail probes' counts"
                    + " them on all links. The third row is the same session with links that give up on lost packets"
                    + " (`ReliableLinkConfig.recovery(false)`), so losses are repaired end to end by the session's"
                    + " timer (floor 200 ms), not by a TCP with fast retransmit: it shows what hop-by-hop recovery buys"
                    + " this code, the paper's rows give the TCP baseline. A late episode is a run of consecutive"
                    + " messages later than 60 ms: a lost message and any held behind it for in-order delivery."
                    + " Link resends on c→d include those of packets whose acknowledgement was lost on d→c; resends"
                    + " on the loss-free links are spurious (an acknowledgement later than the timeout). Target: at"
                    + " most 1% over 60 ms and 0.3% over 100 ms with hop-by-hop recovery.\n\n" + t;
            BenchmarkSection.write(Path.of(docs), "reliable-chain-latency", body);
        }
    }

    static Result run(String mode, boolean recovery, boolean tailProbe, int seconds, int kbps, double loss)
            throws Exception {
        NodeRuntime runtime = NodeRuntime.create(2);
        List<OverlayNode> nodes = new ArrayList<>();
        try {
            for (String name : NAMES) {
                nodes.add(OverlayNode.start(NodeConfig.builder(name).loopback(0).defaultMetric(RoutingMetric.HOPS)
                        .impairmentSeed(name.hashCode())
                        .reliableLink(ReliableLinkConfig.builder().recovery(recovery).tailProbe(tailProbe).build())
                        .build(), runtime));
            }
            for (int i = 0; i + 1 < nodes.size(); i++) {
                OverlayNode x = nodes.get(i);
                OverlayNode y = nodes.get(i + 1);
                x.addNeighbour(new NeighbourConfig(y.name(), y.localAddress()));
                y.addNeighbour(new NeighbourConfig(x.name(), x.localAddress()));
                boolean lossy = x.name().equals("c");
                ImpairmentConfig.Builder imp = ImpairmentConfig.builder().delay(Duration.ofMillis(10));
                if (lossy) {
                    imp.bernoulliLoss(loss);
                }
                x.impair(y.name(), Direction.OUTBOUND, imp.build());
                y.impair(x.name(), Direction.OUTBOUND, imp.build());
            }
            OverlayNode a = nodes.get(0);
            OverlayNode f = nodes.get(nodes.size() - 1);
            long waitUntil = System.nanoTime() + 30_000_000_000L;
            while (!(a.reachableNodes(RoutingMetric.HOPS).contains("f")
                    && f.reachableNodes(RoutingMetric.HOPS).contains("a"))) {
                if (System.nanoTime() > waitUntil) {
                    throw new IllegalStateException("chain did not converge");
                }
                LockSupport.parkNanos(10_000_000);
            }
            LockSupport.parkNanos(2_000_000_000L); // let hello RTTs settle

            long interval = (long) (MESSAGE * 8 * 1e9 / (kbps * 1000.0));
            int count = (int) (seconds * 1e9 / interval);
            long[] generated = new long[count];
            long[] delivered = new long[count];
            int[] order = new int[1];
            boolean[] inOrder = {true};
            ReliableSession in = f.openSession(7, "a", 7, m -> {
                int index = m.payload().getInt(m.payload().readerIndex());
                delivered[index] = System.nanoTime();
                if (index != order[0]) {
                    inOrder[0] = false;
                }
                order[0] = index + 1;
            });
            ReliableSession out = a.openSession(7, "f", 7, m -> {});
            byte[] message = new byte[MESSAGE];
            long start = System.nanoTime() + 10_000_000;
            for (int i = 0; i < count; i++) {
                generated[i] = start + i * interval;
                long wait = generated[i] - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                ByteBuffer.wrap(message).putInt(0, i);
                while (out.send(message) == SendResult.BACK_PRESSURED) {
                    LockSupport.parkNanos(1_000_000);
                }
            }
            long drainUntil = System.nanoTime() + 20_000_000_000L;
            while (order[0] < count && System.nanoTime() < drainUntil) {
                LockSupport.parkNanos(10_000_000);
            }
            long linkResends = 0;
            long lossyResends = 0;
            long probes = 0;
            for (OverlayNode n : nodes) {
                for (Neighbour nb : n.neighbours()) {
                    var st = nb.reliableStatistics();
                    long r = st.retransmissions();
                    linkResends += r;
                    if (r > 0) {
                        System.err.printf("%s: %s→%s resends %d, loss events %d, timeouts %d (spurious %d), probes %d, srtt %.1f ms,"
                                + " timeout %.1f ms, sent %d; hello srtt %.1f ms, min %.1f ms, ups %d%n", mode, n.name(), nb.name(), r,
                                st.lossEvents(), st.timeouts(), st.spuriousTimeouts(), st.tailProbes(), st.srttNanos() / 1e6,
                                st.timeoutNanos() / 1e6, st.packetsSent(), nb.statistics().srttNanos() / 1e6,
                                nb.statistics().minRttNanos() / 1e6, nb.statistics().upTransitions());
                    }
                    probes += st.tailProbes();
                    if (n.name().equals("c") && nb.name().equals("d")) {
                        lossyResends = r;
                    }
                }
            }
            long sessionResends = out.statistics().retransmissions();
            in.close();
            out.close();

            double[] delays = new double[count];
            int got = 0;
            int episodes = 0;
            boolean lastLate = false;
            for (int i = 0; i < count; i++) {
                if (delivered[i] != 0) {
                    delays[got++] = (delivered[i] - generated[i]) / 1e6;
                }
                // A run of consecutive late messages is one episode: a lost message and those held behind it.
                boolean late = delivered[i] == 0 || delivered[i] - generated[i] > 60_000_000L;
                episodes += late && !lastLate ? 1 : 0;
                lastLate = late;
            }
            double[] d = Arrays.copyOf(delays, got);
            Arrays.sort(d);
            double sum = 0;
            int over60 = 0;
            int over100 = 0;
            for (double x : d) {
                sum += x;
                over60 += x > 60 ? 1 : 0;
                over100 += x > 100 ? 1 : 0;
            }
            double avg = got == 0 ? Double.NaN : sum / got;
            double var = 0;
            for (double x : d) {
                var += (x - avg) * (x - avg);
            }
            double jitter = got == 0 ? Double.NaN : Math.sqrt(var / got);
            return new Result(mode, count, got, inOrder[0] && got == count, avg, jitter, 100.0 * over60 / got,
                    100.0 * over100 / got, d[got / 2], d[Math.min(got - 1, (int) (got * 0.99))], d[got - 1], episodes, lossyResends, linkResends,
                    sessionResends, probes);
        } finally {
            nodes.forEach(OverlayNode::stop);
            runtime.close();
        }
    }
}
