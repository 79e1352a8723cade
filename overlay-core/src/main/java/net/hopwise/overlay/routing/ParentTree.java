package net.hopwise.overlay.routing;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import net.hopwise.overlay.NodeId;

/**
 * A shortest-path tree as a read-only map from each reached node to its parent (the source to
 * itself), over the parents array of one computation and its table's numbering, which it shares.
 * A hash map per tree cost about 60 bytes per node; multicast caches a tree per active source at
 * every relay, which made these maps the largest thing in a 1682-node simulation of 800 sources.
 * This costs 4 bytes per node. Iteration follows the table's numbering (ascending ids).
 */
final class ParentTree extends AbstractMap<NodeId, NodeId> {
    private final NodeId[] nodes;
    private final NodeIndex index;
    private final int source;
    private final int[] parents;
    private final int size;

    /** {@code parents[v]} is v's parent number, -1 if not reached; {@code source}'s own entry is ignored. */
    ParentTree(NodeId[] nodes, NodeIndex index, int source, int[] parents) {
        this.nodes = nodes;
        this.index = index;
        this.source = source;
        this.parents = parents;
        int reached = 1;
        for (int v = 0; v < parents.length; v++) {
            if (v != source && parents[v] >= 0) {
                reached++;
            }
        }
        this.size = reached;
    }

    private int parentOf(int v) {
        return v == source ? source : parents[v];
    }

    @Override
    public NodeId get(Object key) {
        if (!(key instanceof NodeId id)) {
            return null;
        }
        int v = index.numberOf(id.value());
        if (v < 0) {
            return null;
        }
        int p = parentOf(v);
        return p < 0 ? null : nodes[p];
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Set<Entry<NodeId, NodeId>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Entry<NodeId, NodeId>> iterator() {
                return new Iterator<>() {
                    private int next = advance(0);

                    private int advance(int from) {
                        int v = from;
                        while (v < parents.length && parentOf(v) < 0) {
                            v++;
                        }
                        return v;
                    }

                    @Override
                    public boolean hasNext() {
                        return next < parents.length;
                    }

                    @Override
                    public Entry<NodeId, NodeId> next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        int v = next;
                        next = advance(v + 1);
                        return new SimpleImmutableEntry<>(nodes[v], nodes[parentOf(v)]);
                    }
                };
            }
        };
    }
}
