package net.hopwise.multicast;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/** What a node's children on a stream's tree reported they received, and when. Only on the node's thread. */
final class SubtreeAcks {
    /** Per child: the watermark it reported and when it was heard. */
    private final Map<NodeId, long[]> byChild = new HashMap<>();

    void onChildAck(NodeId child, long watermark, long nowNanos) {
        byChild.put(child, new long[] {watermark, nowNanos});
    }

    /**
     * How far the subtree below a node has received: the least of the current children's reports, and
     * of the node's own point {@code own} when it is a member (or no child counts). A child not heard
     * yet stands at {@code floor}; one silent for {@code timeoutNanos} no longer counts, and children
     * no longer on the tree are forgotten.
     */
    long watermark(List<NodeId> children, boolean member, long own, long floor, long nowNanos, long timeoutNanos) {
        byChild.keySet().retainAll(children);
        long w = Long.MAX_VALUE;
        for (NodeId c : children) {
            long[] a = byChild.computeIfAbsent(c, k -> new long[] {floor, nowNanos});
            if (nowNanos - a[1] <= timeoutNanos) {
                w = Math.min(w, a[0]);
            }
        }
        if (member || w == Long.MAX_VALUE) {
            w = Math.min(w, own);
        }
        return w;
    }

    void clear() {
        byChild.clear();
    }
}
