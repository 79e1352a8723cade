package net.hopwise.examples.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.RealTimeFlow;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * How often routes change in the admin service's demo overlay: the same five cities on loopback UDP,
 * the same ring with its lossy chord and delays, the same traffic (a message from every node every
 * 50 ms under a random metric, a reliable session and a voice flow between amsterdam and chicago).
 * Each run starts a fresh overlay, lets it converge for the warm-up, then counts for the measured
 * time every node's route changes (the ROUTES_CHANGED events behind the dashboard's reroutes and
 * {@code hopwise.routing.changes}) and how often amsterdam's paths to denver by LATENCY and to chicago
 * by EXPECTED_LATENCY (the two near-ties, 44 against 45 ms) change, sampled every 20 ms.
 * {@code --jitter-ms} adds that much delay jitter to every link, the measurement noise of a busy host.
 *
 * <pre>./mvnw -q -pl overlay-examples -am test-compile exec:java -Dexec.mainClass=net.hopwise.examples.bench.RerouteRate -Dexec.args="--runs 3 --seconds 60"</pre>
 */
public final class RerouteRate {
    private static final List<String> NODES = List.of("amsterdam", "berlin", "chicago", "denver", "edinburgh");
    /** a, b, one-way delay in ms, loss: the admin demo's links. */
    private static final Object[][] LINKS = {
        {"amsterdam", "berlin", 6, 0.0}, {"berlin", "chicago", 35, 0.0}, {"chicago", "denver", 12, 0.0},
        {"denver", "edinburgh", 40, 0.0}, {"edinburgh", "amsterdam", 5, 0.0}, {"amsterdam", "chicago", 32, 0.10}};
    private static final int PORT = 7;
    private static final int SESSION_PORT = 9;
    private static final int REAL_TIME_PORT = 5004;

    private RerouteRate() {}

    public static void main(String[] args) throws Exception {
        int runs = 3;
        int seconds = 60;
        int warmup = 10;
        double jitterMillis = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--jitter-ms" -> jitterMillis = Double.parseDouble(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<long[]> results = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            long[] counts = runOnce(warmup, seconds, jitterMillis);
            results.add(counts);
            System.out.println("run " + run + ": " + row(counts, seconds));
        }
        System.out.println();
        System.out.println("| run | " + String.join(" | ", NODES) + " | all nodes | amsterdam→denver LATENCY path | amsterdam→chicago EXPECTED_LATENCY path |");
        System.out.println("|---|" + "---|".repeat(NODES.size() + 3));
        for (int run = 0; run < results.size(); run++) {
            System.out.println("| " + (run + 1) + " | " + row(results.get(run), seconds) + " |");
        }
        long[] median = new long[results.get(0).length];
        for (int c = 0; c < median.length; c++) {
            long[] column = new long[results.size()];
            for (int run = 0; run < results.size(); run++) {
                column[run] = results.get(run)[c];
            }
            Arrays.sort(column);
            median[c] = column[column.length / 2];
        }
        System.out.println("| median | " + row(median, seconds) + " |");
        System.out.println("(changes per minute over " + seconds + " s after a " + warmup + " s warm-up, jitter "
                + jitterMillis + " ms per link)");
    }

    private static String row(long[] counts, int seconds) {
        List<String> cells = new ArrayList<>();
        for (long c : counts) {
            cells.add(String.format("%.1f", c * 60.0 / seconds));
        }
        return String.join(" | ", cells);
    }

    /** Counts per node, their sum, then the two watched paths' changes. */
    private static long[] runOnce(int warmupSeconds, int seconds, double jitterMillis) throws InterruptedException {
        NodeRuntime runtime = NodeRuntime.create(1);
        ScheduledExecutorService traffic = Executors.newSingleThreadScheduledExecutor();
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        Map<String, OverlayPort> ports = new LinkedHashMap<>();
        AtomicLong[] changes = new AtomicLong[NODES.size()];
        long[] watched = new long[2];
        try {
            for (int i = 0; i < NODES.size(); i++) {
                String name = NODES.get(i);
                AtomicLong counter = changes[i] = new AtomicLong();
                OverlayNode node = OverlayNode.start(NodeConfig.builder(name).loopback(0).build(), runtime);
                node.addListener(e -> {
                    if (e.kind() == NodeEvent.Kind.ROUTES_CHANGED) {
                        counter.incrementAndGet();
                    }
                });
                nodes.put(name, node);
                ports.put(name, node.openPort(PORT, m -> { }));
            }
            for (Object[] link : LINKS) {
                String a = (String) link[0];
                String b = (String) link[1];
                nodes.get(a).addNeighbour(neighbour(nodes, b));
                nodes.get(b).addNeighbour(neighbour(nodes, a));
                ImpairmentConfig.Builder impairment = ImpairmentConfig.builder().delay(Duration.ofMillis((Integer) link[2]));
                if (jitterMillis > 0) {
                    impairment.jitter(Duration.ofNanos((long) (jitterMillis * 1e6)));
                }
                if ((Double) link[3] > 0) {
                    impairment.bernoulliLoss((Double) link[3]);
                }
                // As the admin service applies a link's impairment: each end impairs what it sends.
                nodes.get(a).impair(b, Direction.OUTBOUND, impairment.build());
                nodes.get(b).impair(a, Direction.OUTBOUND, impairment.build());
            }
            startTraffic(nodes, ports, traffic);
            Thread.sleep(warmupSeconds * 1000L);
            long[] start = new long[NODES.size()];
            for (int i = 0; i < start.length; i++) {
                start[i] = changes[i].get();
            }
            OverlayNode amsterdam = nodes.get("amsterdam");
            List<NodeId> toDenver = amsterdam.path("denver", RoutingMetric.LATENCY);
            List<NodeId> toChicago = amsterdam.path("chicago", RoutingMetric.EXPECTED_LATENCY);
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                Thread.sleep(20);
                List<NodeId> d = amsterdam.path("denver", RoutingMetric.LATENCY);
                List<NodeId> c = amsterdam.path("chicago", RoutingMetric.EXPECTED_LATENCY);
                if (!d.equals(toDenver)) {
                    watched[0]++;
                    toDenver = d;
                }
                if (!c.equals(toChicago)) {
                    watched[1]++;
                    toChicago = c;
                }
            }
            long[] result = new long[NODES.size() + 3];
            for (int i = 0; i < start.length; i++) {
                result[i] = changes[i].get() - start[i];
                result[NODES.size()] += result[i];
            }
            result[NODES.size() + 1] = watched[0];
            result[NODES.size() + 2] = watched[1];
            return result;
        } finally {
            traffic.shutdownNow();
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    /** The admin demo's traffic: see its DemoOverlay. */
    private static void startTraffic(Map<String, OverlayNode> nodes, Map<String, OverlayPort> ports,
            ScheduledExecutorService traffic) {
        OverlayNode self = nodes.get("amsterdam");
        OverlayNode peer = nodes.get("chicago");
        AtomicReference<ReliableSession> accepted = new AtomicReference<>();
        peer.acceptSessions(SESSION_PORT, session -> {
            accepted.set(session);
            return message -> { };
        });
        ReliableSession session = self.openSession(SESSION_PORT, "chicago", SESSION_PORT, RoutingMetric.HOPS, m -> { });
        byte[] message = new byte[64];
        traffic.scheduleAtFixedRate(() -> {
            session.send(message);
            ReliableSession back = accepted.get();
            if (back != null) {
                back.send(message);
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
        self.openPort(REAL_TIME_PORT, received -> { });
        RealTimeFlow flow = ports.get("chicago").openRealTime(self.id(), REAL_TIME_PORT, RoutingMetric.HOPS);
        byte[] frame = new byte[160];
        traffic.scheduleAtFixedRate(() -> flow.send(frame), 20, 20, TimeUnit.MILLISECONDS);
        Random random = new Random(20_250_101L);
        RoutingMetric[] metrics = RoutingMetric.values();
        traffic.scheduleAtFixedRate(() -> {
            long second = System.currentTimeMillis() / 1000;
            int base = 300 + (int) (900 * (1 + Math.sin(second / 20.0)));
            for (Map.Entry<String, OverlayPort> e : ports.entrySet()) {
                String to = NODES.get(random.nextInt(NODES.size()));
                if (!to.equals(e.getKey())) {
                    e.getValue().send(to, PORT, new byte[base + random.nextInt(400)], metrics[random.nextInt(metrics.length)]);
                }
            }
        }, 50, 50, TimeUnit.MILLISECONDS);
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
