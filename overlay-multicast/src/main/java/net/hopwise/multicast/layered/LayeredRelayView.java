package net.hopwise.multicast.layered;

import java.util.List;
import net.hopwise.multicast.GroupId;
import net.hopwise.overlay.NodeId;

/**
 * One node's part in one layered session at one instant, for operators: what {@link
 * LayeredMulticast#relays()} lists for every session whose tree crosses the node (its source's own
 * session included). It shows which layers cross each of the node's links down the tree, and how
 * much of each went there.
 *
 * @param upstream the neighbour this node takes the session from; null at the source, or while the
 *     node has no route to it
 * @param localReceivers the session's receivers on this node
 * @param children the neighbours below this node on the tree that hold layers, by name
 */
public record LayeredRelayView(GroupId group, int port, NodeId source, int sessionId, NodeId upstream,
        int localReceivers, List<Child> children) {

    /**
     * A neighbour this node forwards the session to.
     *
     * @param level the highest layer it holds (the layers are cumulative), -1 for none
     * @param layers per layer, what this node handed to the link to it since it last subscribed from
     *     nothing: every layer that carried anything, lowest first
     */
    public record Child(NodeId node, int level, List<LayerTraffic> layers) {
        /** Packets over every layer. */
        public long packets() {
            return layers.stream().mapToLong(LayerTraffic::packets).sum();
        }

        /** Bytes over every layer. */
        public long bytes() {
            return layers.stream().mapToLong(LayerTraffic::bytes).sum();
        }
    }

    /**
     * What went to one child on one layer: packets handed to its link (a relay queueing's own drops
     * after that are the node's {@code layered_fair_queue_full} count) and their layered bytes (the
     * layered header and payload, without the overlay's frame and link headers).
     */
    public record LayerTraffic(int layer, long packets, long bytes) {}
}
