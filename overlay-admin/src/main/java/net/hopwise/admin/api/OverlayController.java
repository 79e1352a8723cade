package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import net.hopwise.admin.overlay.OverlayException;
import net.hopwise.admin.overlay.OverlayView;
import net.hopwise.admin.overlay.RoutesView;
import net.hopwise.admin.overlay.SessionView;
import net.hopwise.admin.overlay.TopologyView;
import net.hopwise.overlay.routing.RoutingMetric;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Read-only views of the overlay: nodes, topology with costs, routes, sessions. */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
@Tag(name = "overlay", description = "The overlay as the service's node sees it")
public class OverlayController {
    private final OverlayView view;

    public OverlayController(OverlayView view) {
        this.view = view;
    }

    @GetMapping("/nodes")
    @Operation(summary = "Every node known: in the link-state database, local, or a configured neighbour")
    public List<TopologyView.Node> nodes() {
        return view.nodeViews(view.snapshot());
    }

    @GetMapping("/nodes/{name}")
    @Operation(summary = "One node", description = "404 (urn:hopwise:problem:unknown-node) when no such node is"
            + " known; a known node that cannot be reached is listed with reachable false, as by /api/routes/{name}")
    public TopologyView.Node node(@PathVariable String name) {
        return view.nodeViews(view.snapshot()).stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> OverlayException.unknownNode(name));
    }

    @GetMapping("/topology")
    @Operation(summary = "Nodes and links, each link's cost in each direction under every metric")
    public TopologyView topology() {
        return view.topology();
    }

    @GetMapping("/routes")
    @Operation(summary = "Routes of the service's node: next hop, path and cost per destination and metric",
            description = "Every other node known is a destination; one that cannot be reached has reachable"
                    + " false, no next hop and an empty path under each metric.")
    public RoutesView routes(
            @Parameter(description = "Only this metric") @RequestParam(required = false) RoutingMetric metric) {
        OverlayView.Snapshot s = view.snapshot();
        List<RoutesView.Route> routes = new ArrayList<>();
        for (TopologyView.Node n : view.nodeViews(s)) {
            if (!n.self()) {
                RoutesView.Route r = route(s, n.name());
                routes.add(metric == null ? r : new RoutesView.Route(r.destination(), Map.of(metric,
                        r.metrics().get(metric))));
            }
        }
        return new RoutesView(s.self(), s.time(), routes);
    }

    @GetMapping("/routes/{destination}")
    @Operation(summary = "Routes to one destination under every metric",
            description = "Agrees with /api/nodes/{name}: 404 (urn:hopwise:problem:unknown-node) for a node not"
                    + " known, and for a known node that cannot be reached 200 with reachable false under each"
                    + " metric. 400 for the service's own node, which has no route to itself.")
    public RoutesView.Route route(@PathVariable String destination) {
        OverlayView.Snapshot s = view.snapshot();
        if (!s.knows(destination)) {
            throw OverlayException.unknownNode(destination);
        }
        if (destination.equals(s.self())) {
            throw new IllegalArgumentException("a node has no route to itself: " + destination);
        }
        return route(s, destination);
    }

    /**
     * The routes to a known node. A node known only as someone's configured neighbour has sent no
     * advertisement, so the routing engine has no entry for it: it is as unreachable as one whose
     * advertisement says so, and is shown the same way.
     */
    private static RoutesView.Route route(OverlayView.Snapshot s, String destination) {
        Map<RoutingMetric, RoutesView.Path> computed = s.routes().get(destination);
        if (computed != null) {
            return new RoutesView.Route(destination, computed);
        }
        Map<RoutingMetric, RoutesView.Path> none = new EnumMap<>(RoutingMetric.class);
        for (RoutingMetric m : RoutingMetric.values()) {
            none.put(m, new RoutesView.Path(false, null, List.of(), null, RoutesView.unitOf(m)));
        }
        return new RoutesView.Route(destination, none);
    }

    @GetMapping("/sessions")
    @Operation(summary = "End-to-end streams of the service's node",
            description = "Its reliable sessions (ports, peer, state, messages sent and delivered, end-to-end"
                    + " retransmissions, windows, buffered packets) and the real-time flows arriving at its ports"
                    + " (source, ports, received, lost, late, one-way delay p50/p99, jitter). An empty array when"
                    + " there are none.")
    public List<SessionView> sessions() {
        return view.sessions();
    }
}
