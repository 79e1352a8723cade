package net.hopwise.overlay.trace;

/**
 * One hop of a trace.
 *
 * @param hop 1 for the source's neighbour on the route, counting up to the destination
 * @param node the node's name
 * @param linkCost the cost under the trace's metric of the link from the previous hop to this node,
 *     as routing uses it (what the previous hop advertises)
 * @param linkRttMillis that link's round trip as the previous hop's link monitor measures it; null
 *     when unknown
 * @param roundTripMillis the round trip from the source to this node measured by the trace's probe;
 *     null when the probe got no answer within the timeout
 */
public record TraceHop(int hop, String node, double linkCost, Double linkRttMillis, Double roundTripMillis) {
    /**
     * The share of the round trip this hop adds: its round trip less the previous hop's ({@code
     * previous} null for the first hop, whose whole round trip it is); null when either is unknown.
     */
    public Double hopRoundTripMillis(TraceHop previous) {
        if (roundTripMillis == null) {
            return null;
        }
        if (previous == null) {
            return roundTripMillis;
        }
        return previous.roundTripMillis == null ? null : roundTripMillis - previous.roundTripMillis;
    }
}
