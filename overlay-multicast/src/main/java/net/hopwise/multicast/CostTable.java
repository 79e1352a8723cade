package net.hopwise.multicast;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * The latest advertised cost of every link this node heard of: one record per origin, merged from its
 * updates (a fast update carries only the links with a queue, a slow one all). An origin not heard for
 * {@code maxAgeNanos} is forgotten (its links cost 0 again), so a crashed node's congestion does not
 * outlive it and a restarted node's fresh sequence is taken. Only on the node's thread.
 */
final class CostTable {
    private static final class Origin {
        int sequence;
        long heardNanos;
        final Map<NodeId, Double> costs = new HashMap<>();
    }

    private final long maxAgeNanos;
    private final Map<NodeId, Origin> origins = new HashMap<>();

    CostTable(long maxAgeNanos) {
        this.maxAgeNanos = maxAgeNanos;
    }

    /** Takes an update unless it is no newer than the origin's last (serial arithmetic); says whether it did. */
    boolean accept(CostUpdate update, long nowNanos) {
        Origin o = origins.get(update.origin());
        if (o != null && update.sequence() - o.sequence <= 0 && nowNanos - o.heardNanos < maxAgeNanos) {
            return false;
        }
        if (o == null) {
            o = new Origin();
            origins.put(update.origin(), o);
        }
        o.sequence = update.sequence();
        o.heardNanos = nowNanos;
        for (CostUpdate.Link l : update.links()) {
            if (l.cost() == 0) {
                o.costs.remove(l.neighbour());
            } else {
                o.costs.put(l.neighbour(), (double) l.cost());
            }
        }
        return true;
    }

    /** The cost of the link {@code from} -> {@code to} as last advertised; 0 when none is known. */
    double cost(NodeId from, NodeId to) {
        Origin o = origins.get(from);
        if (o == null) {
            return 0;
        }
        Double c = o.costs.get(to);
        return c == null ? 0 : c;
    }

    /** Forgets origins not heard within the age bound. */
    void expire(long nowNanos) {
        for (Iterator<Origin> it = origins.values().iterator(); it.hasNext(); ) {
            if (nowNanos - it.next().heardNanos >= maxAgeNanos) {
                it.remove();
            }
        }
    }

    /** Every link with a cost now, by origin then neighbour: for operators and tests. */
    Map<NodeId, Map<NodeId, Double>> snapshot() {
        Map<NodeId, Map<NodeId, Double>> out = new HashMap<>();
        origins.forEach((origin, o) -> {
            if (!o.costs.isEmpty()) {
                out.put(origin, Map.copyOf(o.costs));
            }
        });
        return out;
    }
}
