package net.hopwise.overlay.node;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import net.hopwise.overlay.wire.DropReason;

/**
 * Where an exception thrown while a node handles a packet or a timer ends up: counted as a {@link
 * DropReason#HANDLER_ERROR} drop (so the meter moves), logged at WARN, and swallowed so that one
 * input can never stop the node.
 *
 * <p>Logging is rate limited on the node's own clock: the first fault is logged with its stack trace
 * at once, later ones at most once per {@link #LOG_INTERVAL_NANOS}, each such line saying how many
 * were left unlogged since the previous one. A hostile neighbour that found a fault could otherwise
 * fill the disk with stack traces at line rate.
 */
final class ProtocolFaults {
    /** Ten seconds: an operator sees a persistent fault within one dashboard refresh or two, no more often. */
    static final long LOG_INTERVAL_NANOS = 10_000_000_000L;

    private static final Logger LOG = System.getLogger(NodeStack.class.getName());

    private final String node;
    private final NodeCounters counters;
    private boolean logged;
    private long nextLogAtNanos;
    private long unlogged;

    ProtocolFaults(String node, NodeCounters counters) {
        this.node = node;
        this.counters = counters;
    }

    /**
     * Records a fault.
     *
     * @param where what the node was doing, in words ("a LINK_STATE_UPDATE from b", "the router's timer")
     */
    void record(String where, RuntimeException fault, long nowNanos) {
        counters.drop(DropReason.HANDLER_ERROR);
        if (logged && nowNanos - nextLogAtNanos < 0) {
            unlogged++;
            return;
        }
        String more = unlogged == 0 ? "" : " (" + unlogged + " more since the last report)";
        LOG.log(Level.WARNING, "node " + node + " dropped " + where + ": its handling failed" + more, fault);
        logged = true;
        unlogged = 0;
        nextLogAtNanos = nowNanos + LOG_INTERVAL_NANOS;
    }
}
