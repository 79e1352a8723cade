package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.trace.TraceHop;
import net.hopwise.overlay.trace.TraceResult;

/** A trace from the service's node along its route to another node, as the API returns it. */
public record TraceView(
        String source,
        String destination,
        RoutingMetric metric,
        @Schema(description = "Unit of the link costs: hops, ms, or -ln(1-p) for LOSS") String unit,
        @Schema(description = "Whether the destination answered a probe") boolean reached,
        @Schema(description = "Why there is no trace (no route, unknown node); null when the trace ran",
                nullable = true) String error,
        @Schema(description = "The hops in path order, the service's node excluded; empty without a route")
                List<Hop> hops) {

    /** One hop: the node, its link from the previous hop, and the round trip its probe measured. */
    public record Hop(
            @Schema(description = "1 for the service's node's neighbour on the route") int hop,
            String node,
            @Schema(description = "The cost routing gives the link from the previous hop under the metric;"
                    + " null when infinite (a link routing does not use)", nullable = true) Double linkCost,
            @Schema(description = "That link's round trip as the previous hop measures it; null when unknown",
                    nullable = true) Double linkRttMillis,
            @Schema(description = "Round trip from the service's node to this one, by the trace's probe; null"
                    + " when the probe got no answer in time", nullable = true) Double roundTripMillis) {}

    public static TraceView of(TraceResult r) {
        List<Hop> hops = r.hops().stream().map(TraceView::hop).toList();
        return new TraceView(r.source(), r.destination(), r.metric(), RoutesView.unitOf(r.metric()), r.reached(),
                r.error(), hops);
    }

    private static Hop hop(TraceHop h) {
        // JSON has no infinity: a link that loses everything has an infinite LOSS cost, shown as null.
        Double cost = Double.isFinite(h.linkCost()) ? h.linkCost() : null;
        return new Hop(h.hop(), h.node(), cost, finite(h.linkRttMillis()), finite(h.roundTripMillis()));
    }

    private static Double finite(Double v) {
        return v == null || !Double.isFinite(v) ? null : v;
    }
}
