package net.hopwise.voip.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.SecuritySetup;
import net.hopwise.voip.relay.CallStatistics;
import net.hopwise.voip.relay.PeerRoutes;
import net.hopwise.voip.relay.RelayConfig;
import net.hopwise.voip.relay.SipRelay;
import net.hopwise.voip.relay.StreamStatistics;

/**
 * One overlay node with its SIP relay, as {@code RelayLauncher} runs it, for the benchmark scripts: it
 * waits until its neighbours are reachable before it says READY (so that the first calls do not
 * race the routing), can impair its outbound overlay links with the overlay's own loss model, and
 * when standard input ends prints, besides the relay's state and counters, the media totals of every
 * call it forgot: the relay's own view of loss, lateness and duplicates, which the scripts set beside
 * the phones' view from the packet captures.
 *
 * <pre>
 * java -cp ... net.hopwise.voip.bench.BenchRelay --name a --bind 127.0.0.1:8100 --neighbour b@127.0.0.1:8101 \
 *     --sip 127.0.0.1:5060 --media-ports 30000-34999 --route prefix:bob=b --linger 1 [--loss 0.05 --delay-ms 10 --seed 11]
 *     [--spin-us 50] [--key a.key --trusted-keys trusted] [--media-thread auto|on|off] [--media-thread-calls N]
 * </pre>
 */
public final class BenchRelay {
    private final LongAdder calls = new LongAdder();
    private final LongAdder fromPhone = new LongAdder();
    private final LongAdder expected = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder late = new LongAdder();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    /**
     * Transit of the packets for the phones, from the other node's send stamp to this relay's handler,
     * summed (ms times packets): the part of the egress time spent before the relay sees a packet.
     */
    private double transitMsTimesPackets;
    private final List<String> endReasons = new ArrayList<>();

    private BenchRelay() {}

    public static void main(String[] args) throws IOException {
        String name = null;
        InetSocketAddress bind = null;
        InetSocketAddress sip = null;
        List<String> neighbours = new ArrayList<>();
        List<String> routes = new ArrayList<>();
        int[] mediaPorts = {30000, 39999};
        int linger = 1;
        double loss = 0;
        int delayMs = 0;
        long seed = 1;
        long spinMicros = 0;
        net.hopwise.voip.relay.MediaThread mediaThread = RelayConfig.DEFAULT_MEDIA_THREAD;
        int mediaThreadCalls = RelayConfig.DEFAULT_MEDIA_THREAD_CALLS;
        java.nio.file.Path key = null;
        java.nio.file.Path trustedKeys = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--name" -> name = v;
                case "--bind" -> bind = address(v);
                case "--sip" -> sip = address(v);
                case "--neighbour" -> neighbours.add(v);
                case "--route" -> routes.add(v);
                case "--media-ports" -> mediaPorts = new int[] {
                    Integer.parseInt(v.substring(0, v.indexOf('-'))), Integer.parseInt(v.substring(v.indexOf('-') + 1))};
                case "--linger" -> linger = Integer.parseInt(v);
                case "--loss" -> loss = Double.parseDouble(v);
                case "--delay-ms" -> delayMs = Integer.parseInt(v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--spin-us" -> spinMicros = Long.parseLong(v);
                case "--media-thread" -> mediaThread = net.hopwise.voip.relay.MediaThread.parse(v);
                case "--media-thread-calls" -> mediaThreadCalls = Integer.parseInt(v);
                case "--key" -> key = java.nio.file.Path.of(v);
                case "--trusted-keys" -> trustedKeys = java.nio.file.Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (name == null || bind == null || sip == null) {
            throw new IllegalArgumentException("--name, --bind and --sip are required");
        }
        NodeConfig.Builder node = NodeConfig.builder(name).bindAddress(bind).impairmentSeed(seed);
        if (key != null) {
            // Links sealed as users run them: the launcher's own key options, the default cipher.
            node.module(new SecurityModule(SecuritySetup.fromOptions(name, key, trustedKeys, List.of(), null, null,
                    false)));
        }
        for (String n : neighbours) {
            node.neighbour(NeighbourConfig.parse(n));
        }
        RelayConfig.Builder relay = RelayConfig.builder().sipAddress(sip).mediaAddress(sip.getHostString())
                .mediaPorts(mediaPorts[0], mediaPorts[1]).linger(Duration.ofSeconds(linger)).mediaThread(mediaThread)
                .mediaThreadCalls(mediaThreadCalls);
        routes.forEach(relay::route);
        NodeRuntime runtime = NodeRuntime.builder().spinBeforeSleep(Duration.ofNanos(spinMicros * 1000)).build();
        try {
            new BenchRelay().run(node.build(), runtime, relay.build(), neighbours, loss, delayMs, System.out);
        } finally {
            runtime.close();
        }
    }

    private void run(NodeConfig nodeConfig, NodeRuntime runtime, RelayConfig relayConfig, List<String> neighbours,
            double loss, int delayMs, PrintStream out) throws IOException {
        try (OverlayNode overlay = OverlayNode.start(nodeConfig, runtime); SipRelay sip = SipRelay.start(overlay, relayConfig)) {
            sip.onCallEnded(this::ended);
            List<String> names = neighbours.stream().map(n -> n.substring(0, n.indexOf('@'))).toList();
            if (loss > 0 || delayMs > 0) {
                ImpairmentConfig impairment = ImpairmentConfig.builder().bernoulliLoss(loss)
                        .delay(Duration.ofMillis(delayMs)).build();
                names.forEach(n -> overlay.impair(n, Direction.OUTBOUND, impairment));
            }
            java.util.Set<String> missing = awaitRoutes(overlay, names);
            if (!missing.isEmpty()) {
                out.println("NOT READY: neighbours " + missing + " unreachable after 30 s");
                return;
            }
            out.println("READY " + overlay.name() + " " + overlay.localAddress().getPort() + " "
                    + sip.sipAddress().getPort());
            out.flush();
            while (System.in.read() >= 0) {
                // Only the end of input matters: the script closes it when the calls are over.
            }
            out.println("STATE " + sip.state());
            out.println("COUNTERS " + sip.counters());
            synchronized (this) {
                out.printf(Locale.ROOT, "MEDIA calls=%d fromPhone=%d toPhoneExpected=%d toPhoneReceived=%d lost=%d"
                        + " late=%d duplicates=%d delivered=%d transitMeanMs=%.3f endReasons=%s%n", calls.sum(),
                        fromPhone.sum(), expected.sum(), received.sum(), lost.sum(), late.sum(), duplicates.sum(),
                        delivered.sum(), received.sum() == 0 ? Double.NaN : transitMsTimesPackets / received.sum(),
                        summarise(endReasons));
            }
            out.flush();
        }
    }

    private static java.util.Set<String> awaitRoutes(OverlayNode overlay, List<String> names) {
        try {
            return PeerRoutes.await(overlay, names, Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Set.copyOf(names);
        }
    }

    private synchronized void ended(CallStatistics call) {
        calls.increment();
        endReasons.add(String.valueOf(call.endReason()));
        for (StreamStatistics s : call.streams()) {
            fromPhone.add(s.fromPhone().received());
            expected.add(s.toPhone().expected());
            received.add(s.toPhone().received());
            lost.add(s.toPhone().lost());
            late.add(s.toPhone().late());
            duplicates.add(s.toPhone().duplicates());
            delivered.add(s.deliveredToPhone());
            transitMsTimesPackets += s.toPhone().meanTransitMs() * s.toPhone().received();
        }
    }

    private static String summarise(List<String> reasons) {
        java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
        reasons.forEach(r -> counts.merge(r, 1, Integer::sum));
        return counts.toString();
    }

    private static InetSocketAddress address(String v) {
        int colon = v.lastIndexOf(':');
        return new InetSocketAddress(v.substring(0, colon), Integer.parseInt(v.substring(colon + 1)));
    }

}
