package net.hopwise.overlay.sim;

/** What a trace record says happened. */
public enum TraceKind {
    /** A packet entered a link (queue or wire). */
    SENT,
    /** The link's queue discipline dropped a packet. */
    QUEUE_DROP,
    /** The link's loss model lost a packet on the wire. */
    WIRE_LOSS,
    /** A packet met a failed link or a crashed node. */
    FAILURE_DROP,
    /** A packet reached the far end of a link. */
    ARRIVED,
    /** A node's or agent's timer fired. */
    TIMER,
    /** A message reached its application at the destination. */
    DELIVERED,
    /** A scheduled change to the topology took effect. */
    TOPOLOGY
}
