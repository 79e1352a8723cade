package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.routing.RoutingMetric;

/** The service's node's routes: next hop, whole path and cost per destination and metric. */
public record RoutesView(String from, Instant time, List<Route> routes) {

    /** The routes to one destination. */
    public record Route(String destination, Map<RoutingMetric, Path> metrics) {}

    /** The route to one destination under one metric. */
    public record Path(
            boolean reachable,
            @Schema(nullable = true) String nextHop,
            @Schema(description = "Node names from the service's node to the destination, both included")
                    List<String> path,
            @Schema(description = "The path's cost; null when unreachable", nullable = true) Double cost,
            @Schema(description = "Unit of the cost: hops, ms, or -ln(1-p) for LOSS") String unit) {}

    /** The unit each metric's costs are in. */
    public static String unitOf(RoutingMetric metric) {
        return switch (metric) {
            case HOPS -> "hops";
            case LATENCY, EXPECTED_LATENCY -> "ms";
            case LOSS -> "-ln(1-p)";
        };
    }
}
