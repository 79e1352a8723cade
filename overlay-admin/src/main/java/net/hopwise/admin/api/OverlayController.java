package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
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
    @Operation(summary = "One node", description = "404 when no such node is known")
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
    @Operation(summary = "Routes of the service's node: next hop, path and cost per destination and metric")
    public RoutesView routes(
            @Parameter(description = "Only this metric") @RequestParam(required = false) RoutingMetric metric) {
        RoutesView all = view.routes();
        return metric == null ? all : new RoutesView(all.from(), all.time(), all.routes().stream()
                .map(r -> new RoutesView.Route(r.destination(), java.util.Map.of(metric, r.metrics().get(metric))))
                .toList());
    }

    @GetMapping("/routes/{destination}")
    @Operation(summary = "Routes to one destination under every metric", description = "404 for an unknown node")
    public RoutesView.Route route(@PathVariable String destination) {
        RoutesView all = view.routes();
        return all.routes().stream().filter(r -> r.destination().equals(destination)).findFirst()
                .orElseThrow(() -> destination.equals(all.from())
                        ? new IllegalArgumentException("a node has no route to itself: " + destination)
                        : OverlayException.unknownNode(destination));
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
