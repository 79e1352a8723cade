package net.hopwise.overlay.routing;

import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.DropReason;

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

    /**
     * The router refused one advertisement of an update from {@code from}; called once per refused
     * advertisement (an update can carry many), never for one merely older than or equal to the one
     * held. Reasons: {@link DropReason#LINK_STATE_LIMIT} for a bound on what one neighbour may make
     * this node store and flood (a sequence beyond the clock's window, a neighbour or origin over its
     * per-interval limit, a new origin beyond maxOrigins); {@link DropReason#OVERSIZED} for one too
     * large to re-flood within maxUpdateBodyBytes; {@link DropReason#STALE} for one that arrived at
     * maxAge; {@link DropReason#NOT_A_NEIGHBOUR} for each advertisement of an update whose sender is
     * not an up neighbour. For counting only: an implementation must not call back into the router.
     */
    default void advertisementRejected(NodeId from, DropReason reason) {}
}
