package net.hopwise.admin.overlay;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.micrometer.core.instrument.MeterRegistry;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The demo overlay: five nodes named after cities, in this process on loopback UDP, joined in a ring
 * with one chord, with delays that imitate the distances between the cities, the chord losing 10%
 * of its packets, and traffic flowing between random pairs of nodes under random metrics.
 *
 * <p>Delays and loss are impairments like any other, so the dashboard and the API show them and can
 * change or clear them. The service's own node is the first, amsterdam.
 */
public final class DemoOverlay {
    /** The nodes; the first is the service's own. */
    public static final List<String> NODES = List.of("amsterdam", "berlin", "chicago", "denver", "edinburgh");

    /** One demo link: its ends and the one-way delay and loss each direction gets. */
    public record DemoLink(String a, String b, Duration delay, double loss) {}

    /** A ring amsterdam-berlin-chicago-denver-edinburgh-amsterdam and a lossy chord amsterdam-chicago. */
    public static final List<DemoLink> LINKS = List.of(
            new DemoLink("amsterdam", "berlin", Duration.ofMillis(6), 0),
            new DemoLink("berlin", "chicago", Duration.ofMillis(35), 0),
            new DemoLink("chicago", "denver", Duration.ofMillis(12), 0),
            new DemoLink("denver", "edinburgh", Duration.ofMillis(40), 0),
            new DemoLink("edinburgh", "amsterdam", Duration.ofMillis(5), 0),
            new DemoLink("amsterdam", "chicago", Duration.ofMillis(32), 0.10));

    /** The overlay port demo traffic is sent to. */
    static final int PORT = 7;

    private DemoOverlay() {}

    /**
     * Starts the demo nodes, links and impairs them, and starts the traffic.
     *
     * @param registry where every node's meters go
     * @param trafficInterval pause between rounds of traffic
     * @param impairments how impairments are applied, so the API reports these like its own
     */
    public static LocalNodes start(MeterRegistry registry, Duration trafficInterval, LinkImpairments.Applier impairments) {
        NodeRuntime runtime = NodeRuntime.create(1);
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        Map<String, OverlayPort> ports = new LinkedHashMap<>();
        ScheduledExecutorService traffic = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hopwise-demo-traffic");
            t.setDaemon(true);
            return t;
        });
        AutoCloseable resources = () -> {
            traffic.shutdownNow();
            runtime.close();
        };
        try {
            for (String name : NODES) {
                OverlayNode node = OverlayNode.start(NodeConfig.builder(name).loopback(0).meterRegistry(registry)
                        .build(), runtime);
                nodes.put(name, node);
                ports.put(name, node.openPort(PORT, message -> { }));
            }
            for (DemoLink link : LINKS) {
                nodes.get(link.a()).addNeighbour(neighbour(nodes, link.b()));
                nodes.get(link.b()).addNeighbour(neighbour(nodes, link.a()));
            }
            LocalNodes local = new LocalNodes(nodes.get(NODES.get(0)), nodes, true, resources);
            for (DemoLink link : LINKS) {
                ImpairmentRequest request = new ImpairmentRequest(ImpairmentRequest.Scope.BOTH, link.loss(),
                        (double) link.delay().toMillis(), null, null, null, null, null, null);
                impairments.apply(local, link.a(), link.b(), request);
            }
            Random random = new Random(20_250_101L);
            long periodNanos = Math.max(1_000_000L, trafficInterval.toNanos());
            traffic.scheduleAtFixedRate(() -> sendRound(ports, random), periodNanos, periodNanos, TimeUnit.NANOSECONDS);
            return local;
        } catch (RuntimeException e) {
            nodes.values().forEach(OverlayNode::stop);
            try {
                resources.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Each node sends one message to a random other node under a random metric, of a size that drifts
     * over time, so throughput charts move the way real traffic does.
     */
    private static void sendRound(Map<String, OverlayPort> ports, Random random) {
        long second = System.currentTimeMillis() / 1000;
        int base = 300 + (int) (900 * (1 + Math.sin(second / 20.0)));
        RoutingMetric[] metrics = RoutingMetric.values();
        for (Map.Entry<String, OverlayPort> e : ports.entrySet()) {
            String to = NODES.get(random.nextInt(NODES.size()));
            if (to.equals(e.getKey())) {
                continue;
            }
            byte[] payload = new byte[base + random.nextInt(400)];
            // A send without a route yet, or while back-pressured, is simply skipped: this is demo load.
            e.getValue().send(to, PORT, payload, metrics[random.nextInt(metrics.length)]);
        }
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
