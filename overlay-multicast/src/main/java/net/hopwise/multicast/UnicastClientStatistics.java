package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * One reliable session end of this node as a client of Cost-Benefit flow control (see {@link
 * MulticastModule#withUnicastCostBenefit}).
 *
 * @param remote the node at the session's other end
 * @param metric the metric its packets are routed by
 * @param packets packets bought (each new packet once; resends are not bought)
 * @param refusals times the session was told to wait: it could not afford its next packet, or the
 *     1/C_p draw held it back
 * @param tokens dollars in its budget
 * @param salaryPeriodNanos its salary period now
 * @param lastPacketCost the cost C_p of the last packet bought, fee included (0 before any)
 */
public record UnicastClientStatistics(NodeId remote, RoutingMetric metric, long packets, long refusals, double tokens,
        long salaryPeriodNanos, double lastPacketCost) {}
