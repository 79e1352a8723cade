package net.hopwise.overlay.security;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Not a test: the 3-hop round trip of {@link SealedLinkBenchmark}, plaintext and sealed measured in
 * the same seconds. On a shared 2-core virtual machine a round trip of four nodes on two event loops
 * is mostly thread wake-ups, whose cost changes by a factor of two from one second to the next
 * (whether the scheduler keeps both loops on one core or wakes the other, halted one): two chains
 * measured one after the other compare two states of the scheduler more than two protocols. Here both
 * chains run on one runtime, the nodes of each on the same loops as the other's, and their pings
 * alternate one by one, each sent from a task on the client's loop after the other chain's reply
 * arrived: every sealed sample has a plaintext sample beside it, taken under the same conditions.
 */
final class RoundTripProbe {
    private static final int PAYLOAD = 64;
    private static final RoutingMetric METRIC = RoutingMetric.HOPS;
    private static final int WARMUP = 200;

    private RoundTripProbe() {}

    /** Median round trips and loop CPU of one paired measurement. */
    record Paired(double plainNanos, double sealedNanos, double plainP90, double sealedP90, double plainCpuNanos,
            double sealedCpuNanos) {
        double ratio() {
            return sealedNanos / plainNanos;
        }
    }

    /** One chain's client and what it measured. */
    private static final class Chain {
        final OverlayNode client;
        final NodeId server;
        final long[] rtts;
        OverlayPort port;
        long sentAt;
        int samples = -WARMUP;

        Chain(List<OverlayNode> nodes, int count) {
            this.client = nodes.get(0);
            this.server = nodes.get(nodes.size() - 1).id();
            this.rtts = new long[count];
        }
    }

    /**
     * {@code count} round trips of a 64-byte message over each of two 4-node chains, one plaintext and
     * one sealed with {@code suite}, alternating, on one 2-thread runtime.
     */
    static Paired paired(CipherSuite suite, int count) throws Exception {
        return measure(suite, count, 1);
    }

    /**
     * As {@link #paired}, but the chains take turns every {@code block} samples (after their warm-up):
     * with {@code block} as large as {@code count} they run one after the other, as the benchmark's
     * round-trip rows do, and the loops' CPU per round trip of each chain is measured too.
     */
    static Paired measure(CipherSuite suite, int count, int block) throws Exception {
        return measure(suite, count, block, -1);
    }

    /** As {@link #measure(CipherSuite, int, int)}; {@code only} 0 or 1 pings the plaintext or the sealed chain alone. */
    static Paired measure(CipherSuite suite, int count, int block, int only) throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(2)) {
            // Registration order places node i of either chain on loop i mod 2: the same hops cross
            // the same threads in both chains.
            List<OverlayNode> plainNodes = SealedLinkBenchmark.chain(runtime, null, "p", "q", "r", "s");
            List<OverlayNode> sealedNodes = SealedLinkBenchmark.chain(runtime, suite, "w", "x", "y", "z");
            if (plainNodes.get(0).eventLoop() != sealedNodes.get(0).eventLoop()) {
                throw new IllegalStateException("the two clients are on different loops");
            }
            try {
                Chain[] chains = {new Chain(plainNodes, count), new Chain(sealedNodes, count)};
                for (List<OverlayNode> nodes : List.of(plainNodes, sealedNodes)) {
                    OverlayPort[] echo = new OverlayPort[1];
                    echo[0] = nodes.get(nodes.size() - 1).openPort(9,
                            m -> echo[0].send(m.source(), m.sourcePort(), m.payloadBytes(), METRIC));
                }
                byte[] payload = new byte[PAYLOAD];
                CountDownLatch done = new CountDownLatch(1);
                int[] turn = {0};
                int[] sinceSwitch = {0};
                long[] cpuMark = {0};
                long[] cpuOf = {0, 0};
                boolean[] resent = {false};
                Runnable[] ping = new Runnable[1];
                ping[0] = () -> {
                    Chain c = chains[turn[0]];
                    c.sentAt = System.nanoTime();
                    c.port.send(c.server, 9, payload, METRIC);
                };
                for (int k = 0; k < 2; k++) {
                    Chain c = chains[k];
                    int mine = k;
                    c.port = c.client.openPort(9, m -> {
                        long now = System.nanoTime();
                        if (turn[0] != mine || done.getCount() == 0) {
                            return; // a late reply to a ping resent after a loss
                        }
                        if (resent[0]) {
                            resent[0] = false; // spans a loss: not a sample
                        } else if (c.samples++ >= 0) {
                            c.rtts[c.samples - 1] = now - c.sentAt;
                        }
                        boolean finished = chains[0].samples >= count && chains[1].samples >= count;
                        boolean otherDone = chains[1 - mine].samples >= count;
                        if (!finished && c.samples < count && (otherDone || c.samples > 0 && ++sinceSwitch[0] < block)) {
                            chains[mine].client.eventLoop().execute(ping[0]);
                            return;
                        }
                        sinceSwitch[0] = 0;
                        if (block > 1) {
                            long cpu = loopCpu();
                            if (c.samples > 0) {
                                cpuOf[mine] += cpu - cpuMark[0];
                            }
                            cpuMark[0] = cpu;
                        }
                        if (finished) {
                            done.countDown();
                            return;
                        }
                        turn[0] = 1 - mine;
                        // Both chains' pings leave from a task, never from the reply's handler, so that
                        // neither is sent earlier in the loop's turn than the other.
                        chains[turn[0]].client.eventLoop().execute(ping[0]);
                    });
                }
                if (only >= 0) {
                    chains[1 - only].samples = count;
                    turn[0] = only;
                }
                Chain first = chains[0];
                cpuMark[0] = loopCpu();
                long cpu0 = cpuMark[0];
                chains[turn[0]].client.eventLoop().execute(ping[0]);
                long deadline = System.nanoTime() + 120_000_000_000L;
                int seen = -1;
                while (!done.await(200, TimeUnit.MILLISECONDS)) {
                    int now = first.client.inspect(e -> chains[0].samples + chains[1].samples);
                    if (now == seen) {
                        // a ping lost on loopback: send it again; the sample that spans the loss is not counted
                        first.client.inspect(e -> {
                            resent[0] = true;
                            ping[0].run();
                            return null;
                        });
                    }
                    seen = now;
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("round trips stalled");
                    }
                }
                long cpu = loopCpu() - cpu0;
                long[] p = chains[0].rtts.clone();
                long[] s = chains[1].rtts.clone();
                Arrays.sort(p);
                Arrays.sort(s);
                double perPair = cpu / (2.0 * (count + WARMUP));
                return new Paired(p[count / 2], s[count / 2], p[count * 9 / 10], s[count * 9 / 10],
                        block > 1 ? cpuOf[0] / (double) count : perPair, block > 1 ? cpuOf[1] / (double) count : perPair);
            } finally {
                for (OverlayNode n : plainNodes) {
                    n.stop();
                }
                for (OverlayNode n : sealedNodes) {
                    n.stop();
                }
            }
        }
    }

    /**
     * {@code java -cp <test classpath> net.hopwise.overlay.security.RoundTripProbe [--rounds 3] [--pings 5000]
     * [--block 1] [--suite AES_GCM]}: a warm-up measurement, then the rounds, each a line, and their medians.
     */
    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(arg(args, "--rounds", "3"));
        int pings = Integer.parseInt(arg(args, "--pings", "5000"));
        int block = Integer.parseInt(arg(args, "--block", "1"));
        int only = Integer.parseInt(arg(args, "--only", "-1"));
        CipherSuite suite = CipherSuite.valueOf(arg(args, "--suite", "AES_GCM"));
        System.out.printf(java.util.Locale.ROOT, "Java %s; %d rounds of %d round trips a chain, turns every %d%n",
                System.getProperty("java.version"), rounds, pings, block);
        measure(suite, pings / 2, block, only);
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            Paired p = measure(suite, pings, block, only);
            ratios[r] = p.ratio();
            System.out.printf(java.util.Locale.ROOT, "round %d: plaintext %.1f us (p90 %.1f), %s %.1f us (p90 %.1f):"
                    + " %.2fx; loops' CPU a round trip %.1f / %.1f us%n", r + 1, p.plainNanos() / 1e3,
                    p.plainP90() / 1e3, suite, p.sealedNanos() / 1e3, p.sealedP90() / 1e3, p.ratio(),
                    p.plainCpuNanos() / 1e3, p.sealedCpuNanos() / 1e3);
        }
        Arrays.sort(ratios);
        System.out.printf(java.util.Locale.ROOT, "median of %d rounds: %.2fx%n", rounds, ratios[rounds / 2]);
    }

    private static String arg(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    /** CPU time so far of the event loops' threads. */
    static long loopCpu() {
        var bean = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (var info : bean.getThreadInfo(bean.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("hopwise-loop-")) {
                long t = bean.getThreadCpuTime(info.getThreadId());
                sum += Math.max(0, t);
            }
        }
        return sum;
    }
}
