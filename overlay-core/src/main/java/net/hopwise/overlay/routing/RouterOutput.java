package net.hopwise.overlay.routing;

import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.DropReason;

/**
 * Where a {@link Router} puts what it produces. Called on the router's thread, from inside the
 * router's own methods: an implementation queues or transmits, and never calls back into the router
 * ({@link #extensionChanged} excepted).
 */
public interface RouterOutput {
    /** Transmit this update to a neighbour; its body never exceeds the configured maxUpdateBodyBytes. */
    void sendUpdate(NodeId neighbour, LinkStateUpdate update);

    /** Transmit this ack to a neighbour; its body never exceeds the configured maxUpdateBodyBytes. */
    void sendAck(NodeId neighbour, LinkStateAck ack);

    /**
     * Transmit these extension records to a neighbour as a {@code LINK_STATE_EXTENSION} packet
     * ({@link ExtensionCodec#encodeUpdate}); its body never exceeds maxUpdateBodyBytes. The default
     * sends nothing: a node must override it (and the ack below) for extension records to flood.
     */
    default void sendExtensionUpdate(NodeId neighbour, ExtensionUpdate update) {}

    /**
     * Transmit this extension ack to a neighbour as a {@code LINK_STATE_EXTENSION_ACK} packet
     * ({@link ExtensionCodec#encodeAck}); its body never exceeds maxUpdateBodyBytes.
     */
    default void sendExtensionAck(NodeId neighbour, ExtensionAck ack) {}

    /**
     * The record of {@code kind} that {@code origin} publishes changed here: {@code record} is the new
     * content (a fresh copy the callee may keep), or null when it was withdrawn, expired, or went with
     * its origin's advertisement. Called for this node's own publishes too, once per actual change
     * (a refresh or a re-flooded copy with the same content is not one), in the order of the changes,
     * at the end of the router call that made them, once its packets were handed out. Unlike the
     * other methods, an implementation may call back into the router from here (to publish a record
     * in answer, say): the router is consistent by then, and the nested call's own changes are
     * reported after these. Never a cause of route computation.
     */
    default void extensionChanged(NodeId origin, int kind, byte[] record) {}

    /**
     * The number of up neighbours our own advertisement leaves out for want of room changed (to
     * {@code leftOut} of {@code neighbours}; 0 when all fit again). The lowest-latency links are the
     * ones listed; the others carry no transit traffic, which an operator must be told.
     */
    default void linksLeftOut(int leftOut, int neighbours) {}

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
     * not an up neighbour. Extension records are refused under the same reasons (and counted one per
     * record), plus {@link DropReason#EXTENSION_LIMIT} for one larger than maxExtensionBytes or a new
     * kind beyond maxExtensionsPerOrigin. For counting only: an implementation must not call back into the router.
     */
    default void advertisementRejected(NodeId from, DropReason reason) {}
}
