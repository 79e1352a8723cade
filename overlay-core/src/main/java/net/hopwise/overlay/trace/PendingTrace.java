package net.hopwise.overlay.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RouteView;

/**
 * A trace the source is waiting on: its probes' send time, the answers so far and the records they
 * carried, and how to turn them into a {@link TraceResult}. Lives on the node's thread.
 */
final class PendingTrace {
    private static final long NO_ANSWER = -1;

    final long id;
    final String destinationName;
    final NodeId destination;
    final RoutingMetric metric;
    final long deadlineNanos;
    final CompletableFuture<TraceResult> future;
    /** The path as the source's routes have it, the source first: names hops no answer named. */
    private final List<NodeId> planned;
    private final long sentNanos;
    /** Per probe (index = hop number), the round trip of its answer in nanoseconds. */
    private final long[] roundTrip;
    /** Per hop, the record the answer of the farthest probe carried, and that probe's number. */
    private final TracePacket.Hop[] records;
    private final int[] recordedBy;
    /** The hop where the destination answered, or where a node had no route on; 0 while neither. */
    private int reachedAt;
    private int noRouteAt;

    PendingTrace(long id, String destinationName, NodeId destination, RoutingMetric metric, List<NodeId> planned,
            long sentNanos, long timeoutNanos, CompletableFuture<TraceResult> future) {
        this.id = id;
        this.destinationName = destinationName;
        this.destination = destination;
        this.metric = metric;
        this.planned = planned;
        this.sentNanos = sentNanos;
        this.deadlineNanos = sentNanos + timeoutNanos;
        this.future = future;
        int probes = planned.size() - 1;
        roundTrip = new long[probes + 1];
        Arrays.fill(roundTrip, NO_ANSWER);
        records = new TracePacket.Hop[probes + 1];
        recordedBy = new int[probes + 1];
    }

    int probes() {
        return roundTrip.length - 1;
    }

    /**
     * Whether an answer belongs to this trace: the same destination and metric, a probe it sent, and
     * only the destination saying it is the destination.
     */
    boolean matches(TracePacket answer) {
        return answer.destination().equals(destination) && answer.metric() == metric && answer.probe() <= probes()
                && (answer.status() != TracePacket.DESTINATION_REACHED || answer.last().equals(destination));
    }

    /** Takes an answer that {@link #matches}; a duplicate keeps the first round trip. */
    void answered(TracePacket answer, long nowNanos) {
        int probe = answer.probe();
        if (roundTrip[probe] == NO_ANSWER) {
            roundTrip[probe] = nowNanos - sentNanos;
        }
        List<TracePacket.Hop> hops = answer.records();
        for (int k = 1; k <= hops.size(); k++) {
            if (probe >= recordedBy[k]) {
                records[k] = hops.get(k - 1);
                recordedBy[k] = probe;
            }
        }
        int at = hops.size();
        if (answer.status() == TracePacket.DESTINATION_REACHED && (reachedAt == 0 || at < reachedAt)) {
            reachedAt = at;
        } else if (answer.status() == TracePacket.NO_ROUTE && (noRouteAt == 0 || at < noRouteAt)) {
            noRouteAt = at;
        }
    }

    /** Whether every probe up to where the trace ends was answered: nothing more to wait for. */
    boolean complete() {
        for (int k = 1; k <= length(); k++) {
            if (roundTrip[k] == NO_ANSWER) {
                return false;
            }
        }
        return true;
    }

    /** Hops the result lists: up to the destination, or the node without a route, or every probe. */
    private int length() {
        if (reachedAt > 0) {
            return reachedAt;
        }
        return noRouteAt > 0 ? noRouteAt : probes();
    }

    TraceResult result(String source, RouteView routes) {
        int length = length();
        List<TraceHop> hops = new ArrayList<>(length);
        NodeId previous = planned.get(0);
        for (int k = 1; k <= length; k++) {
            TracePacket.Hop r = records[k];
            NodeId node = r != null ? r.node() : planned.get(k);
            // No answer carried this hop: the source's own routes name it and give its cost.
            double cost = r != null ? r.linkCost() : routes.linkCost(previous, node, metric);
            Double linkRtt = r != null && r.linkRttNanos() >= 0 ? r.linkRttNanos() / 1e6 : null;
            Double rtt = roundTrip[k] == NO_ANSWER ? null : roundTrip[k] / 1e6;
            hops.add(new TraceHop(k, routes.nameOf(node), cost, linkRtt, rtt));
            previous = node;
        }
        String error = null;
        if (reachedAt == 0 && noRouteAt > 0) {
            error = "no route to " + destinationName + " under " + metric + " beyond "
                    + routes.nameOf(records[noRouteAt] != null ? records[noRouteAt].node() : planned.get(noRouteAt));
        }
        return new TraceResult(source, destinationName, metric, reachedAt > 0, hops, error);
    }
}
