package net.hopwise.overlay.node;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RouteView;

/** The router's answers for modules, read on the node's thread. */
final class ModuleRoutes implements RouteView {
    private final NodeContext node;

    ModuleRoutes(NodeContext node) {
        this.node = node;
    }

    @Override
    public NodeId nextHop(NodeId destination, RoutingMetric metric) {
        return node.router().nextHop(destination, metric);
    }

    @Override
    public List<NodeId> path(NodeId destination, RoutingMetric metric) {
        return List.copyOf(node.router().path(destination, metric));
    }

    @Override
    public double pathCost(NodeId destination, RoutingMetric metric) {
        return node.router().pathCost(destination, metric);
    }

    @Override
    public double linkCost(NodeId from, NodeId to, RoutingMetric metric) {
        LinkStateAdvertisement a = node.router().database().get(from).orElse(null);
        if (a == null) {
            return Double.POSITIVE_INFINITY;
        }
        var cost = a.costTo(to);
        return cost == null ? Double.POSITIVE_INFINITY : metric.linkCost(cost, node.config().routing());
    }

    @Override
    public Map<NodeId, NodeId> tree(NodeId source, RoutingMetric metric) {
        return node.router().tree(source, metric);
    }

    @Override
    public String nameOf(NodeId id) {
        return node.nameOf(id.value());
    }

    @Override
    public Optional<NodeId> find(String name) {
        if (name == null) {
            return Optional.empty();
        }
        if (name.equals(node.config().name())) {
            return Optional.of(node.id());
        }
        for (Neighbour n : node.neighbourValues()) {
            if (n.name().equals(name)) {
                return Optional.of(n.id());
            }
        }
        return node.router().database().idOf(name);
    }

    @Override
    public NodeId idOf(String name) {
        return node.router().database().idOf(name).orElseGet(() -> NodeId.ofName(name));
    }
}
