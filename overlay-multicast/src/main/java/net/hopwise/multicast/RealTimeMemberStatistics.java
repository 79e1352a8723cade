package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RealTimeStatistics;

/**
 * One real-time stream as a member node received it: what its local members of the port were
 * delivered and what they missed. {@code stats.received() - stats.late()} packets were delivered
 * (each to every local member of the port); late ones were counted and dropped.
 *
 * @param source the node whose application sends the stream
 * @param sourceName that node's name as this node's link state knows it
 * @param metric the metric whose trees the stream follows
 * @param stats delay, loss, late, recovered, duplicates and jitter, as unicast real-time flows report them
 */
public record RealTimeMemberStatistics(NodeId source, String sourceName, GroupId group, int port,
        RoutingMetric metric, RealTimeStatistics stats) {

    /** Packets handed to the local members (each counted once, however many members the port has). */
    public long delivered() {
        return stats.received() - stats.late();
    }
}
