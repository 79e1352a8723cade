package net.hopwise.overlay.routing;

import net.hopwise.overlay.NodeId;

/**
 * Where a {@link Router} puts what it produces. Called on the router's thread, from inside the
 * router's own methods: an implementation queues or transmits, and never calls back into the router.
 */
public interface RouterOutput {
    /** Transmit this update to a neighbour; its body never exceeds the configured maxUpdateBodyBytes. */
    void sendUpdate(NodeId neighbour, LinkStateUpdate update);

    /** Transmit this ack to a neighbour; its body never exceeds the configured maxUpdateBodyBytes. */
    void sendAck(NodeId neighbour, LinkStateAck ack);

    /** A route computation changed some next hop or path (not merely a cost). */
    void routesChanged(long nowNanos);
}
