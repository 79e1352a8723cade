package net.hopwise.overlay.routing;

import net.hopwise.overlay.NodeId;

/**
 * Numbers the nodes of one route computation 0..n-1 and finds a node's number from its id without
 * allocating: open addressing over primitive longs, with id 0 (reserved by {@link NodeId}) as the
 * empty slot. Per-packet forwarding lookups go through here.
 */
final class NodeIndex {
    private final long[] keys;
    private final int[] numbers;
    private final int mask;

    /** Numbers {@code nodes} by their position; the ids must be distinct. */
    NodeIndex(NodeId[] nodes) {
        // At most half full, so a miss ends after a short probe.
        int capacity = Integer.highestOneBit(Math.max(4, nodes.length * 2 - 1)) << 1;
        keys = new long[capacity];
        numbers = new int[capacity];
        mask = capacity - 1;
        for (int n = 0; n < nodes.length; n++) {
            long id = nodes[n].value();
            int slot = slot(id);
            while (keys[slot] != 0) {
                if (keys[slot] == id) {
                    throw new IllegalArgumentException("duplicate node " + nodes[n]);
                }
                slot = (slot + 1) & mask;
            }
            keys[slot] = id;
            numbers[slot] = n;
        }
    }

    /** The number of the node with this id, or -1. */
    int numberOf(long id) {
        if (id == 0) {
            return -1;
        }
        for (int slot = slot(id); ; slot = (slot + 1) & mask) {
            long key = keys[slot];
            if (key == id) {
                return numbers[slot];
            }
            if (key == 0) {
                return -1;
            }
        }
    }

    private int slot(long id) {
        // Fibonacci hashing: ids are already hash-like, but tests and configs use small ones.
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
