package net.hopwise.examples;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * A demo overlay of five nodes in one process on loopback UDP: a ring a-b-c-d-e with a chord a-c,
 * the chord lossy and one ring link slow, traffic between every pair. It prints link measurements,
 * the routes each metric picks and how many messages arrived, every few seconds.
 *
 * <pre>./mvnw -q -pl overlay-examples -am test-compile exec:java [-Dexec.args="--seconds 20"]</pre>
 */
public final class DemoOverlay implements AutoCloseable {
    static final List<String> NAMES = List.of("a", "b", "c", "d", "e");
    static final String[][] LINKS = {{"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "e"}, {"e", "a"}, {"a", "c"}};
    private static final int PORT = 7;

    private final NodeRuntime runtime = NodeRuntime.create(1);
    private final Map<String, OverlayNode> nodes = new LinkedHashMap<>();
    private final Map<String, OverlayPort> ports = new LinkedHashMap<>();
    private final Map<String, AtomicLong> delivered = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());

    /** Starts the nodes, joins them, and impairs two links. */
    public DemoOverlay() {
        for (String name : NAMES) {
            OverlayNode node = OverlayNode.start(NodeConfig.builder(name).loopback(0).build(), runtime);
            nodes.put(name, node);
            delivered.put(name, new AtomicLong());
            ports.put(name, node.openPort(PORT, m -> delivered.get(name).incrementAndGet()));
            node.addListener(this::onEvent);
        }
        for (String[] link : LINKS) {
            nodes.get(link[0]).addNeighbour(neighbour(link[1]));
            nodes.get(link[1]).addNeighbour(neighbour(link[0]));
        }
        ImpairmentConfig lossy = ImpairmentConfig.builder().bernoulliLoss(0.10).delay(Duration.ofMillis(2)).build();
        ImpairmentConfig slow = ImpairmentConfig.builder().delay(Duration.ofMillis(25)).build();
        // Each end impairs what it sends, so each direction of a link is impaired exactly once.
        nodes.get("a").impair("c", Direction.OUTBOUND, lossy);
        nodes.get("c").impair("a", Direction.OUTBOUND, lossy);
        nodes.get("d").impair("e", Direction.OUTBOUND, slow);
        nodes.get("e").impair("d", Direction.OUTBOUND, slow);
    }

    private NeighbourConfig neighbour(String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }

    private void onEvent(NodeEvent e) {
        if (e.kind() != NodeEvent.Kind.ROUTES_CHANGED) {
            events.add(e.node() + ": " + e.kind() + (e.peer() == null ? "" : " " + e.peer()));
        }
    }

    public Map<String, OverlayNode> nodes() {
        return nodes;
    }

    /** Sends one message between every ordered pair of nodes; returns how many were accepted. */
    public int sendRound(Random random) {
        int accepted = 0;
        for (String from : NAMES) {
            for (String to : NAMES) {
                if (!from.equals(to)) {
                    RoutingMetric metric = RoutingMetric.values()[random.nextInt(RoutingMetric.values().length)];
                    if (ports.get(from).send(to, PORT, ("from " + from).getBytes(), metric) == SendResult.ACCEPTED) {
                        accepted++;
                    }
                }
            }
        }
        sent.addAndGet(accepted);
        return accepted;
    }

    public long delivered() {
        return delivered.values().stream().mapToLong(AtomicLong::get).sum();
    }

    public long sent() {
        return sent.get();
    }

    /** Writes the current link table, routes from a, and traffic counts. */
    public void report(PrintStream out) {
        out.println();
        out.println("Links (measured by hellos; loss 'out' is what the peer reports)");
        out.printf("  %-6s %-6s %-6s %9s %9s %8s %8s%n", "node", "peer", "state", "rtt ms", "jitter ms", "loss in", "loss out");
        for (OverlayNode node : nodes.values()) {
            for (Neighbour n : node.neighbours()) {
                LinkStatistics s = n.statistics();
                out.printf("  %-6s %-6s %-6s %9.2f %9.2f %7.1f%% %7.1f%%%n", node.name(), n.name(), s.status(),
                        s.srttNanos() / 1e6, s.jitterNanos() / 1e6, 100 * s.inboundLossRate(),
                        100 * s.outboundLossRate());
            }
        }
        out.println("Routes from a, per metric");
        OverlayNode a = nodes.get("a");
        for (String to : NAMES.subList(1, NAMES.size())) {
            StringBuilder row = new StringBuilder(String.format("  a -> %s:", to));
            for (RoutingMetric m : RoutingMetric.values()) {
                row.append(String.format("  %s %-12s", m.name().toLowerCase(), pathOf(a, to, m)));
            }
            out.println(row);
        }
        out.printf("Traffic: %d messages sent, %d delivered%n", sent(), delivered());
        synchronized (events) {
            if (!events.isEmpty()) {
                out.println("Events: " + String.join("; ", events));
                events.clear();
            }
        }
    }

    private static String pathOf(OverlayNode node, String to, RoutingMetric metric) {
        List<NodeId> path = node.path(to, metric);
        if (path.isEmpty()) {
            return "unreachable";
        }
        StringBuilder s = new StringBuilder();
        for (NodeId id : path) {
            for (String n : NAMES) {
                if (NodeId.ofName(n).equals(id)) {
                    s.append(n);
                }
            }
        }
        return String.join("-", s.toString().split(""));
    }

    @Override
    public void close() {
        nodes.values().forEach(OverlayNode::stop);
        runtime.close();
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = Long.MAX_VALUE;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--seconds") && i + 1 < args.length) {
                seconds = Long.parseLong(args[++i]);
            } else {
                System.err.println("usage: DemoOverlay [--seconds N]");
                System.exit(2);
            }
        }
        System.out.println("Hopwise demo overlay: nodes a-e on loopback UDP, ring a-b-c-d-e-a plus chord a-c.");
        System.out.println("Link a-c drops 10% of packets each way; link d-e adds 25 ms each way. Ctrl-C to stop.");
        try (DemoOverlay demo = new DemoOverlay()) {
            Random random = new Random(1);
            long start = System.nanoTime();
            long lastReport = start;
            while (System.nanoTime() - start < Duration.ofSeconds(Math.min(seconds, 1L << 40)).toNanos()) {
                demo.sendRound(random);
                Thread.sleep(100);
                if (System.nanoTime() - lastReport >= 3_000_000_000L) {
                    lastReport = System.nanoTime();
                    demo.report(System.out);
                }
            }
            demo.report(System.out);
        }
    }
}
