package net.hopwise.overlay.routing;

import java.util.Iterator;
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
     * Tree entries (one per node of each cached tree) kept at once, least recently used trees dropped
     * first: 2^18 holds a few hundred trees of a thousand nodes (a node forwards for a few hundred
     * active multicast sources at most) in about 12 MB, and a dropped tree costs one shortest-path
     * computation to make again.
     */
    static final int MAX_CACHED_ENTRIES = 1 << 18;

    private record Key(NodeId source, RoutingMetric metric) {}

    private final RoutingTable table;
    private final int maxEntries;
    /** In access order, so the first is the least recently used. */
    private final LinkedHashMap<Key, Map<NodeId, NodeId>> cache = new LinkedHashMap<>(16, 0.75f, true);
    private int entries;

    SourceTrees(RoutingTable table) {
        this(table, MAX_CACHED_ENTRIES);
    }

    SourceTrees(RoutingTable table, int maxEntries) {
        this.table = table;
        this.maxEntries = maxEntries;
    }

    Map<NodeId, NodeId> tree(NodeId source, RoutingMetric metric) {
        Key key = new Key(source, metric);
        Map<NodeId, NodeId> tree = cache.get(key);
        if (tree == null) {
            tree = table.tree(source, metric);
            cache.put(key, tree);
            entries += tree.size();
            for (Iterator<Map<NodeId, NodeId>> eldest = cache.values().iterator(); entries > maxEntries && cache.size() > 1; ) {
                entries -= eldest.next().size();
                eldest.remove();
            }
        }
        return tree;
    }

    /** How many trees are cached. */
    int cached() {
        return cache.size();
    }
}
