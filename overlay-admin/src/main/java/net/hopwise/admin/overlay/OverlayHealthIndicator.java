package net.hopwise.admin.overlay;

import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.node.Neighbour;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The service's node as a health check: UP when it runs, at least one of its links is up (or it has
 * none configured) and routes have been computed from the database; OUT_OF_SERVICE while it is still
 * joining; DOWN once stopped. It is part of the readiness group, so a load balancer or orchestrator
 * sends nothing to a node that cannot route yet.
 */
public final class OverlayHealthIndicator implements HealthIndicator {
    private final OverlayView view;

    public OverlayHealthIndicator(OverlayView view) {
        this.view = view;
    }

    @Override
    public Health health() {
        OverlayNode self = view.nodes().self();
        if (!self.isRunning()) {
            return Health.down().withDetail("node", self.name()).withDetail("reason", "the node is stopped").build();
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
        long reachable = s.routes().values().stream()
                .filter(r -> r.get(net.hopwise.overlay.routing.RoutingMetric.HOPS).reachable()).count();
        boolean routesComputed = links == 0 || (s.recomputations() > 0 && reachable > 0);
        Health.Builder b = links > 0 && up == 0 ? Health.outOfService().withDetail("reason", "no link is up yet")
                : !routesComputed ? Health.outOfService().withDetail("reason", "no routes computed yet")
                : Health.up();
        return b.withDetail("node", self.name())
                .withDetail("links", links)
                .withDetail("linksUp", up)
                .withDetail("nodesKnown", s.advertisements().size())
                .withDetail("nodesReachable", reachable)
                .withDetail("routeComputations", s.recomputations())
                .build();
    }
}
