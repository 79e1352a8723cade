package net.hopwise.admin.overlay;

import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.routing.RoutingMetric;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The service's node as a health check: UP when it runs and either has no link configured or has a
 * link up, routes computed and another node reachable; OUT_OF_SERVICE while it is still joining, with
 * the reason that holds it back; DOWN once stopped. It is part of the readiness group, so a load
 * balancer or orchestrator sends nothing to a node that cannot route yet.
 */
public final class OverlayHealthIndicator implements HealthIndicator {
    /** Reasons, one per cause, so an operator reading the probe knows what to look at. */
    public static final String STOPPED = "the node is stopped";
    public static final String NO_LINK_UP = "no link is up yet";
    public static final String NO_ROUTE_COMPUTED = "no route computed yet";
    public static final String NO_NODE_REACHABLE = "no node reachable: routes were computed, but no other node"
            + " is reachable from this one";

    private final OverlayView view;

    public OverlayHealthIndicator(OverlayView view) {
        this.view = view;
    }

    /** What the health of a node is decided on. */
    public record Facts(String node, boolean running, int links, int linksUp, int nodesKnown, long nodesReachable,
            long routeComputations) {}

    @Override
    public Health health() {
        OverlayNode self = view.nodes().self();
        if (!self.isRunning()) {
            return assess(new Facts(self.name(), false, 0, 0, 0, 0, 0));
        }
        int links = 0;
        int up = 0;
        for (Neighbour n : self.neighbours()) {
            links++;
            if (n.status() == LinkStatus.UP) {
                up++;
            }
        }
        OverlayView.Snapshot s = view.snapshot();
        long reachable = s.routes().values().stream().filter(r -> r.get(RoutingMetric.HOPS).reachable()).count();
        return assess(new Facts(self.name(), true, links, up, s.advertisements().size(), reachable, s.recomputations()));
    }

    /**
     * The health these facts give. The first cause in the order a joining node clears them is the one
     * reported: a link must be up before routes mean anything, and computed routes that reach nobody
     * are a different fault (the neighbour's advertisement missing or refused) from routes not yet
     * computed.
     */
    public static Health assess(Facts f) {
        if (!f.running()) {
            return Health.down().withDetail("node", f.node()).withDetail("reason", STOPPED).build();
        }
        String reason = f.links() == 0 ? null
                : f.linksUp() == 0 ? NO_LINK_UP
                : f.routeComputations() == 0 ? NO_ROUTE_COMPUTED
                : f.nodesReachable() == 0 ? NO_NODE_REACHABLE
                : null;
        Health.Builder b = reason == null ? Health.up() : Health.outOfService().withDetail("reason", reason);
        return b.withDetail("node", f.node())
                .withDetail("links", f.links())
                .withDetail("linksUp", f.linksUp())
                .withDetail("nodesKnown", f.nodesKnown())
                .withDetail("nodesReachable", f.nodesReachable())
                .withDetail("routeComputations", f.routeComputations())
                .build();
    }
}
