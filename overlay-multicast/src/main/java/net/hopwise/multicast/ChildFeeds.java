package net.hopwise.multicast;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * From which sequence a node has fed each of its current children on a stream's tree with every new
 * packet: a child's request for a packet below that (it became a child after the packet passed) is
 * always answered from the cache, while one at or above it may be left to the link channel that still
 * carries the packet. Only on the node's thread.
 */
final class ChildFeeds {
    private final Map<NodeId, Long> from = new HashMap<>();
    private List<NodeId> lastChildren = List.of();

    /** The packet {@code sequence} went to these children (the tree's list: the same object while the tree is). */
    void fed(List<NodeId> children, long sequence) {
        if (children == lastChildren) {
            return;
        }
        from.keySet().retainAll(children);
        for (NodeId c : children) {
            from.putIfAbsent(c, sequence);
        }
        lastChildren = children;
    }

    /** Whether {@code child} was sent {@code sequence} when it first passed this node. */
    boolean fed(NodeId child, long sequence) {
        Long first = from.get(child);
        return first != null && first <= sequence;
    }

    void clear() {
        from.clear();
        lastChildren = List.of();
    }
}
