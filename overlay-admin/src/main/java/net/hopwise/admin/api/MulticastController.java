package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Set;
import net.hopwise.admin.config.HopwiseProperties;
import net.hopwise.admin.overlay.DemoOverlay;
import net.hopwise.admin.overlay.LocalNodes;
import net.hopwise.admin.overlay.MulticastView;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Multicast groups, their member nodes and Cost-Benefit link costs, as the service's node knows them. */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
@Tag(name = "multicast", description = "Groups, members and flow-control costs")
public class MulticastController {
    private final LocalNodes nodes;
    private final Set<String> knownGroups;

    public MulticastController(LocalNodes nodes, HopwiseProperties properties,
            io.micrometer.core.instrument.MeterRegistry registry) {
        this.nodes = nodes;
        // Group ids are hashes: names come from what this service runs (the demo's group) and is told.
        Set<String> names = new java.util.TreeSet<>(properties.getAdmin().getMulticastGroups());
        if (nodes.demo()) {
            names.add(DemoOverlay.GROUP);
            names.add(DemoOverlay.LAYERED_GROUP);
        }
        this.knownGroups = Set.copyOf(names);
        net.hopwise.admin.overlay.MulticastMeters.register(registry, nodes, knownGroups);
    }

    @GetMapping("/multicast")
    @Operation(summary = "Multicast groups, members and link costs", description = "Every group some node is a"
            + " member of, as the service's node's view holds it (group id, name where the service knows it, member"
            + " nodes, and for a named group each local node's members, sends, deliveries and relayed fragments,"
            + " reliable streams and the trees of local sources), the layered receivers of the local nodes with"
            + " their levels over time, and the Cost-Benefit link costs it knows. 404 (urn:hopwise:problem:multicast-disabled) when the"
            + " service's node runs no multicast module.")
    public MulticastView multicast() {
        return MulticastView.of(nodes.self(), nodes.all(), knownGroups);
    }
}
