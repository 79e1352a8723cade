package net.hopwise.overlay.routing;

import java.util.LinkedHashMap;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * Shortest-path trees from any source over one {@link RoutingTable}'s snapshot of the graph, cached
 * per (source, metric). A router replaces it with each route computation, so a cached tree never
 * outlives the topology it was computed from, and {@code tree(self)} always matches the routes
 * {@code path()} answers from.
 */
final class SourceTrees {
    /**
     * Trees kept at once, least recently used dropped first: a node forwards for a few hundred active
     * multicast sources at most, and a dropped tree costs one shortest-path computation to make again.
     */
    static final int MAX_CACHED = 1024;

    private record Key(NodeId source, RoutingMetric metric) {}

    private final RoutingTable table;
    private final Map<Key, Map<NodeId, NodeId>> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Map<NodeId, NodeId>> eldest) {
            return size() > MAX_CACHED;
        }
    };

    SourceTrees(RoutingTable table) {
        this.table = table;
    }

    Map<NodeId, NodeId> tree(NodeId source, RoutingMetric metric) {
        return cache.computeIfAbsent(new Key(source, metric), k -> table.tree(k.source(), k.metric()));
    }

    int cached() {
        return cache.size();
    }
}
