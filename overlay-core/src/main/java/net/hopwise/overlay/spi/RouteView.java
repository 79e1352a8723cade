package net.hopwise.overlay.spi;

import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The node's routes, read synchronously on its thread: the same answers the node's own forwarding
 * uses, so a module forwarding along them agrees with every other node.
 */
public interface RouteView {
    /** The neighbour a packet to {@code destination} leaves by, or null when unreachable. */
    NodeId nextHop(NodeId destination, RoutingMetric metric);

    /** The whole path, this node first; empty when unreachable. */
    List<NodeId> path(NodeId destination, RoutingMetric metric);

    /** The cost of the path, +Infinity when unreachable. */
    double pathCost(NodeId destination, RoutingMetric metric);

    /**
     * The cost of the link {@code from}-{@code to} as {@code from} advertised it, +Infinity when the
     * link-state database holds no such link.
     */
    double linkCost(NodeId from, NodeId to, RoutingMetric metric);

    /**
     * The shortest-path tree rooted at {@code source} under a metric, as each node's parent, with the
     * same tie-breaking as unicast routes (so a tree from this node agrees with {@link #path}): the
     * source maps to itself, unreachable nodes are absent.
     */
    Map<NodeId, NodeId> tree(NodeId source, RoutingMetric metric);

    /** A node's name from link state (its id in hex until its advertisement arrives). */
    String nameOf(NodeId node);

    /** A node's id from its name, resolving through link state; the hash of the name otherwise. */
    NodeId idOf(String name);

    /**
     * The node of that name if this node knows it: itself, a neighbour, or an origin in link state;
     * empty for a name nobody advertised (or one that is not a valid node name).
     */
    java.util.Optional<NodeId> find(String name);
}
