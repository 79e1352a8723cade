package net.hopwise.overlay.spi;

import java.net.InetSocketAddress;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * One overlay link, as every stage and module sees it: who is at the other end, what the link
 * measures and how full its reliable channel is. Read on the node's thread; the statistics are
 * published safely for other threads too.
 */
public interface LinkView {
    /** The neighbour's name. */
    String name();

    /** The neighbour's node id. */
    NodeId id();

    /** Where the neighbour is now. */
    InetSocketAddress address();

    LinkStatus status();

    /** Whether the link's transport takes more now (the node's socket, or the link's own transport). */
    boolean writable();

    /**
     * The neighbour's monotonic clock minus this node's, estimated from the hellos: subtract it from
     * a time the neighbour stamped to read that time on this node's clock. 0 before the link was
     * measured, and when the two may share one clock (nodes on one machine).
     */
    long clockOffsetNanos();

    /** The latest round-trip, loss and jitter measurements; null before the first hello. */
    LinkStatistics statistics();

    /** The reliable channel's queue, window and counters; null before the link started. */
    ReliableLinkStatistics reliableStatistics();

    /**
     * How full the link's reliable channel is now, for flow control above it (Cost-Benefit prices a
     * link by its queue): packets queued and not yet sent, whether it takes another packet, and the
     * congestion level (0-3) a packet joining the queue now is marked with.
     */
    LinkFlow flow();

    /** A link's reliable channel at one instant; see {@link #flow()}. */
    record LinkFlow(int queued, boolean hasRoom, int congestionLevel) {}

    /**
     * What this link costs routing under a metric, from its latest measurements; +Infinity while the
     * link is not up.
     */
    double cost(RoutingMetric metric);
}
