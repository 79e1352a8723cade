package net.hopwise.examples.fairness;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.examples.reliable.BenchmarkSection;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.multicast.layered.EraConfig;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.multicast.layered.LayeredReceiver;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;

/**
 * One end of {@link LayeredTcpBenchmark}, run inside a network namespace: an overlay node with the
 * multicast module and a plain TCP endpoint. The {@code sender} opens a layered session at {@code
 * --layered-at} seconds and a TCP connection at {@code --tcp-at}, written to as fast as it takes data; the {@code
 * receiver} joins the session (ERA with {@code --rules thesis|fair}) and accepts the connection, and
 * prints one {@code @sample} line a second (bytes of layered packets and of TCP so far, the level).
 * Both stop after {@code --seconds}.
 */
public final class LayeredTcpPeer {
    static final String GROUP = "live";
    static final int PORT = 5004;
    /** 1000-byte packets in bunches of 4: the loopback run found bunches steadier than pairs on real paths. */
    static final int PACKET = 1000;
    static final int BUNCH = 4;

    private LayeredTcpPeer() {}

    public static void main(String[] args) throws Exception {
        boolean sender = args.length > 0 && args[0].equals("sender");
        InetAddress bind = InetAddress.getByName(BenchmarkSection.argument(args, "--bind", "127.0.0.1"));
        InetAddress peer = InetAddress.getByName(BenchmarkSection.argument(args, "--peer", "127.0.0.1"));
        int tcpPort = Integer.parseInt(BenchmarkSection.argument(args, "--tcp-port", "5001"));
        double seconds = Double.parseDouble(BenchmarkSection.argument(args, "--seconds", "60"));
        double tcpAt = Double.parseDouble(BenchmarkSection.argument(args, "--tcp-at", "0"));
        int layers = Integer.parseInt(BenchmarkSection.argument(args, "--layers", "40"));
        long layerBps = Long.parseLong(BenchmarkSection.argument(args, "--layer-bps", "100000"));
        String rules = BenchmarkSection.argument(args, "--rules", "fair");
        String self = sender ? FairnessPeer.SENDER : FairnessPeer.RECEIVER;
        String other = sender ? FairnessPeer.RECEIVER : FairnessPeer.SENDER;
        OverlayNode node = OverlayNode.start(NodeConfig.builder(self)
                .bindAddress(new InetSocketAddress(bind, FairnessPeer.OVERLAY_PORT))
                .neighbour(other, new InetSocketAddress(peer, FairnessPeer.OVERLAY_PORT))
                .module(new MulticastModule())
                .build());
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        try {
            Multicast mc = node.module(Multicast.class);
            if (sender) {
                double layeredAt = Double.parseDouble(BenchmarkSection.argument(args, "--layered-at", "0"));
                Thread tcp = new Thread(() -> {
                    try {
                        sleepUntil(start + (long) (tcpAt * 1e9));
                        try (SocketChannel c = SocketChannel.open(new InetSocketAddress(peer, tcpPort))) {
                            ByteBuffer chunk = ByteBuffer.allocateDirect(256 * 1024);
                            while (System.nanoTime() < end) {
                                chunk.clear();
                                c.write(chunk);
                            }
                        }
                    } catch (Exception e) {
                        // The receiver went first at the end of the run.
                    }
                }, "tcp-source");
                tcp.setDaemon(true);
                tcp.start();
                sleepUntil(start + (long) (layeredAt * 1e9));
                int bunch = Integer.parseInt(BenchmarkSection.argument(args, "--bunch", String.valueOf(BUNCH)));
                EraConfig config = EraConfig.builder().packetBytes(PACKET).bunchLength(bunch).build();
                mc.openLayeredSender(GROUP, PORT, LayerRates.equal(layers, layerBps), config);
                sleepUntil(end);
            } else {
                AtomicLong tcpBytes = new AtomicLong();
                ServerSocketChannel server = ServerSocketChannel.open();
                server.bind(new InetSocketAddress(bind, tcpPort));
                Thread sink = new Thread(() -> {
                    try (server; SocketChannel c = server.accept()) {
                        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
                        int n;
                        while ((n = c.read(buffer)) >= 0) {
                            tcpBytes.addAndGet(n);
                            buffer.clear();
                        }
                    } catch (java.io.IOException e) {
                        // The sender closed or the run ended: counts so far stand.
                    }
                }, "tcp-sink");
                sink.setDaemon(true);
                sink.start();
                EraConfig config = rules(rules);
                LayeredReceiver r = mc.joinLayered(GROUP, PORT, config, m -> { });
                String tracePath = BenchmarkSection.argument(args, "--trace", "");
                java.io.PrintWriter trace = tracePath.isEmpty() ? null
                        : new java.io.PrintWriter(java.nio.file.Files.newBufferedWriter(java.nio.file.Path.of(tracePath)));
                if (trace != null) {
                    // The node's clock is System.nanoTime, so the decisions' instants line up with the samples'.
                    r.onDecision(d -> trace.println(decisionLine(d, start)));
                }
                FairnessPeer.reply("ready", java.util.Map.of());
                for (long t = start + 1_000_000_000L; t <= end; t += 1_000_000_000L) {
                    sleepUntil(t);
                    FairnessPeer.reply("sample", java.util.Map.of("t", (t - start) / 1_000_000_000L,
                            "layered", r.packetsReceived() * (long) PACKET, "tcp", tcpBytes.get(), "level", r.level()));
                }
                if (trace != null) {
                    synchronized (trace) {
                        trace.flush();
                    }
                }
            }
        } finally {
            node.stop();
        }
        System.exit(0);
    }

    /**
     * The receiver's rules by name: {@code thesis}, {@code fair} (ERA_FAIR), {@code prompt}
     * (ERA_PROMPT: ERA_FAIR, the queue-growth drop and TFRC's rise cap), {@code tfrc} (ERA_TFRC:
     * ERA_PROMPT and TFRC's loss-event history), {@code drain} (ERA_DRAIN: ERA_PROMPT and the
     * queue drain after a drop of more than one layer, the simulator's preset), {@code friendly}
     * (ERA_FRIENDLY: ERA_TFRC with one loss event per congestion episode and no event opened by a
     * bunch's own tail, meant for a measured round trip as the live receiver's is), {@code recommended}
     * (ERA_RECOMMENDED: ERA_FRIENDLY and the queue drain, the simulator's pick), or {@code fair-slow},
     * ERA_FAIR with the bunch estimate over 6 intervals and the loss rate over 10 s, a prototype
     * against the live swing: over a bare FIFO few pairs are split, and when the 5 s window held no
     * more loss the target went to the capacity a pair read.
     */
    static EraConfig rules(String name) {
        return switch (name) {
            case "thesis" -> EraConfig.thesis();
            case "fair" -> EraConfig.fair();
            case "prompt" -> EraConfig.prompt();
            case "tfrc" -> EraConfig.tfrc();
            case "drain" -> EraConfig.prompt().toBuilder().queueDrain(true).build();
            case "friendly" -> EraConfig.friendly();
            case "recommended" -> EraConfig.recommended();
            case "fair-slow" -> EraConfig.fair().toBuilder().estimateIntervals(6)
                    .lossWindow(java.time.Duration.ofSeconds(10)).build();
            default -> throw new IllegalArgumentException("unknown rules " + name + "; thesis, fair, prompt, tfrc, drain, friendly, recommended or fair-slow");
        };
    }

    /** One decision of the receiver's trace as a line: seconds since the start, then the decision's fields. */
    static String decisionLine(net.hopwise.multicast.layered.EraDecision d, long startNanos) {
        double lowest = Double.NaN;
        for (double x : d.samples()) {
            lowest = Double.isNaN(lowest) ? x : Math.min(lowest, x);
        }
        return String.format(java.util.Locale.ROOT, "t=%.3f kind=%s samples=%d lowest=%.0f rpp=%.0f pkts=%d losses=%d"
                + " l=%.5f rtt=%.4f rtcp=%.0f target=%.0f from=%d to=%d all=%s", (d.nowNanos() - startNanos) / 1e9, d.kind(),
                d.samples().length, lowest, d.bunchEstimate(), d.packets(), d.losses(), d.lossRate(), d.rttSeconds(),
                d.tcpRate(), d.target(), d.fromLevel(), d.toLevel(), allSamples(d.samples()));
    }

    /** The samples in arrival order, in kbit/s, so that a trace shows each pair's reading and not only the lowest. */
    static String allSamples(double[] samples) {
        StringBuilder b = new StringBuilder();
        for (double x : samples) {
            b.append(b.isEmpty() ? "" : ",").append(Double.isInfinite(x) ? "inf" : Long.toString(Math.round(x / 1e3)));
        }
        return b.isEmpty() ? "-" : b.toString();
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, left / 1_000_000));
        }
    }
}
