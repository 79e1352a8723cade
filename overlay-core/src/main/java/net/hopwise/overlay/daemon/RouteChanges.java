package net.hopwise.overlay.daemon;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Logs reroutes: which destinations changed next hop, under which metric. A route event says only
 * that something changed, so the next hops are read again and compared with the last ones logged.
 */
final class RouteChanges {
    /**
     * Destinations named per line: a reroute around one link moves a handful; a node joining a large
     * overlay makes hundreds reachable at once, which a count says better than a list.
     */
    static final int MAX_LISTED = 8;

    private final OverlayNode node;
    private final Executor executor;
    private final DaemonLog log;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Only touched on the executor, which runs one task at a time. */
    private final Map<RoutingMetric, Map<String, String>> logged = new EnumMap<>(RoutingMetric.class);

    RouteChanges(OverlayNode node, Executor executor, DaemonLog log) {
        this.node = node;
        this.executor = executor;
        this.log = log;
    }

    /**
     * Called on the node's loop for every route event. The comparison runs on the executor, because
     * it queries the loop and waits; events that arrive before it runs are covered by that one run.
     */
    void changed() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                executor.execute(this::compare);
            } catch (RejectedExecutionException stopping) {
                scheduled.set(false);
            }
        }
    }

    private void compare() {
        scheduled.set(false);
        if (!node.isRunning()) {
            return;
        }
        try {
            Map<RoutingMetric, String> changes = new EnumMap<>(RoutingMetric.class);
            for (RoutingMetric metric : RoutingMetric.values()) {
                Map<String, String> now = nextHops(metric);
                String change = describe(logged.getOrDefault(metric, Map.of()), now, MAX_LISTED);
                if (change != null) {
                    changes.put(metric, change);
                }
                logged.put(metric, now);
            }
            for (String line : lines(changes)) {
                log.log(Level.INFO, line);
            }
        } catch (IllegalStateException stopped) {
            // The node stopped between the check and the queries: nothing left to report.
        }
    }

    /** Next hop (a neighbour's name) per reachable destination under one metric. */
    private Map<String, String> nextHops(RoutingMetric metric) {
        Map<NodeId, String> neighbourNames = new HashMap<>();
        for (Neighbour n : node.neighbours()) {
            neighbourNames.put(n.id(), n.name());
        }
        Map<String, String> hops = new HashMap<>();
        for (String destination : node.reachableNodes(metric)) {
            if (destination.equals(node.name())) {
                continue;
            }
            NodeId hop = node.nextHop(destination, metric);
            if (hop != null) {
                hops.put(destination, neighbourNames.getOrDefault(hop, hop.toString()));
            }
        }
        return hops;
    }

    /**
     * One line per metric whose routes changed, or a single line when every metric changed the same
     * way (the usual case in a small overlay, where all metrics agree on the paths).
     */
    static List<String> lines(Map<RoutingMetric, String> changes) {
        if (changes.size() == RoutingMetric.values().length && new java.util.HashSet<>(changes.values()).size() == 1) {
            return List.of("routes by every metric: " + changes.values().iterator().next());
        }
        List<String> lines = new ArrayList<>();
        changes.forEach((metric, change) -> lines.add("routes by " + metric.name().toLowerCase() + ": " + change));
        return lines;
    }

    /**
     * The destinations whose next hop differs between {@code before} and {@code after} (destination
     * to next-hop name), at most {@code max} of them; null when none does.
     */
    static String describe(Map<String, String> before, Map<String, String> after, int max) {
        Set<String> destinations = new TreeSet<>(before.keySet());
        destinations.addAll(after.keySet());
        List<String> changes = new ArrayList<>();
        for (String d : destinations) {
            String was = before.get(d);
            String now = after.get(d);
            if (was != null && was.equals(now)) {
                continue;
            }
            if (now == null) {
                changes.add(d + " unreachable (was " + via(d, was) + ")");
            } else if (was == null) {
                changes.add(d + " " + via(d, now) + " (new)");
            } else {
                changes.add(d + " " + via(d, now) + " (was " + via(d, was) + ")");
            }
        }
        if (changes.isEmpty()) {
            return null;
        }
        StringBuilder line = new StringBuilder();
        line.append(String.join("; ", changes.subList(0, Math.min(max, changes.size()))));
        if (changes.size() > max) {
            line.append("; and ").append(changes.size() - max).append(" more");
        }
        return line.toString();
    }

    private static String via(String destination, String hop) {
        return hop.equals(destination) ? "direct" : "via " + hop;
    }
}
