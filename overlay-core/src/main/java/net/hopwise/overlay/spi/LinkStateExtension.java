package net.hopwise.overlay.spi;

import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * A module's records in link state: one opaque record per (origin, kind), carried by the node's
 * reliable flooding, ordered per origin, aged and collected like advertisements (a crashed node's
 * records go with its link state), without ever moving unicast routes.
 */
public interface LinkStateExtension {
    /** The kind, unique per node among modules. */
    int kind();

    /**
     * Publishes this node's record of this kind, replacing its previous one, and floods it.
     *
     * @throws IllegalArgumentException when the record exceeds the configured size bound
     */
    void publish(byte[] record);

    /** Withdraws this node's record of this kind (flooded as such). */
    void withdraw();

    /** Every origin's current record of this kind, this node's own included; a fresh copy. */
    Map<NodeId, byte[]> records();

    /** Hears every change of a record of this kind: a new one, or null when it went. */
    @FunctionalInterface
    interface Listener {
        void changed(NodeId origin, byte[] record);
    }
}
