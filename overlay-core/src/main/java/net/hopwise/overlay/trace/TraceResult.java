package net.hopwise.overlay.trace;

import java.util.List;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The outcome of a trace.
 *
 * @param source the tracing node's name
 * @param destination the destination's name as asked
 * @param metric the metric whose route was traced
 * @param reached whether the destination answered a probe
 * @param hops the hops in path order, the source excluded; empty when there was no route
 * @param error null on success; why there is no trace otherwise (for example {@code "no route to x
 *     under LATENCY"})
 */
public record TraceResult(String source, String destination, RoutingMetric metric, boolean reached,
        List<TraceHop> hops, String error) {
    public TraceResult {
        hops = List.copyOf(hops);
    }

    /** A trace that could not start or finish. */
    static TraceResult failed(String source, String destination, RoutingMetric metric, String error) {
        return new TraceResult(source, destination, metric, false, List.of(), error);
    }

    /** Hop {@code i}'s own share of the round trip (see {@link TraceHop#hopRoundTripMillis}). */
    public Double hopRoundTripMillis(int index) {
        return hops.get(index).hopRoundTripMillis(index == 0 ? null : hops.get(index - 1));
    }
}
