package net.hopwise.examples.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Overlay nodes on loopback UDP in this JVM, each bound to a free port, linked pairwise at runtime.
 * Either every node runs on a single-thread runtime of its own, as separate processes or machines
 * would, or all share one runtime.
 */
final class LoopbackOverlay implements AutoCloseable {
    /** The metric the benchmarks route by: hop count makes every path exact and stable. */
    static final RoutingMetric METRIC = RoutingMetric.HOPS;

    private final Map<String, OverlayNode> nodes = new LinkedHashMap<>();
    private final List<NodeRuntime> runtimes = new ArrayList<>();
    private final Supplier<NodeRuntime> runtimeOfNode;

    private LoopbackOverlay(Supplier<NodeRuntime> runtimeOfNode) {
        this.runtimeOfNode = runtimeOfNode;
    }

    /**
     * Nodes each on a runtime of its own from {@code newRuntime} (single-thread, as a process of its
     * own would have); the runtimes stop with the overlay.
     */
    static LoopbackOverlay ownRuntimes(List<String> names, Supplier<NodeRuntime> newRuntime) {
        LoopbackOverlay overlay = new LoopbackOverlay(newRuntime);
        overlay.startAll(names);
        return overlay;
    }

    /** Nodes all on one shared runtime, which this overlay closes with them. */
    static LoopbackOverlay sharedRuntime(List<String> names, NodeRuntime runtime) {
        LoopbackOverlay overlay = new LoopbackOverlay(() -> runtime);
        overlay.runtimes.add(runtime);
        overlay.startAll(names);
        return overlay;
    }

    /**
     * Nodes placed in turn on the given runtimes (node i on runtime i mod n), which this overlay
     * closes with them: with two single-thread runtimes a chain's neighbours are always on different
     * threads, as on separate machines, while the machine's cores are not oversubscribed.
     */
    static LoopbackOverlay roundRobin(List<String> names, List<NodeRuntime> runtimes) {
        int[] turn = {0};
        LoopbackOverlay overlay = new LoopbackOverlay(() -> runtimes.get(turn[0]++ % runtimes.size()));
        overlay.runtimes.addAll(runtimes);
        overlay.startAll(names);
        return overlay;
    }

    private void startAll(List<String> names) {
        try {
            for (String name : names) {
                NodeConfig config = NodeConfig.builder(name).loopback(0).defaultMetric(METRIC).build();
                NodeRuntime runtime = runtimeOfNode.get();
                if (!runtimes.contains(runtime)) {
                    runtimes.add(runtime);
                }
                nodes.put(name, OverlayNode.start(config, runtime));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    OverlayNode node(String name) {
        OverlayNode n = nodes.get(name);
        if (n == null) {
            throw new IllegalArgumentException("no node " + name);
        }
        return n;
    }

    List<String> names() {
        return List.copyOf(nodes.keySet());
    }

    /** An overlay link between two nodes, configured at both ends. */
    void link(String a, String b) {
        node(a).addNeighbour(neighbourConfig(b));
        node(b).addNeighbour(neighbourConfig(a));
    }

    private NeighbourConfig neighbourConfig(String name) {
        return new NeighbourConfig(name, new InetSocketAddress(node(name).localAddress().getAddress(),
                node(name).localAddress().getPort()));
    }

    /** Whether every node reaches every node under {@link #METRIC}. */
    boolean converged() {
        for (OverlayNode n : nodes.values()) {
            if (!n.reachableNodes(METRIC).containsAll(nodes.keySet())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits until every node reaches every node and returns how long that took.
     *
     * @throws IllegalStateException when the overlay has not converged within {@code timeout}
     */
    Duration awaitConvergence(Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (!converged()) {
            if (System.nanoTime() > deadline) {
                List<String> missing = new ArrayList<>();
                for (OverlayNode n : nodes.values()) {
                    int reach = n.reachableNodes(METRIC).size();
                    if (reach < nodes.size()) {
                        missing.add(n.name() + " reaches " + reach);
                    }
                }
                throw new IllegalStateException("overlay of " + nodes.size() + " nodes did not converge within "
                        + timeout + ": " + missing);
            }
            LockSupport.parkNanos(5_000_000);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Override
    public void close() {
        for (OverlayNode n : nodes.values()) {
            n.stop();
        }
        nodes.clear();
        runtimes.forEach(NodeRuntime::close);
        runtimes.clear();
    }
}
