package net.hopwise.overlay.spi;

import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Admits the packets of this node's reliable sessions, for a module that meters unicast traffic
 * beside its own (Cost-Benefit flow control buys each session packet from a budget, as it does a
 * multicast sender's). Installed with {@link ModuleContext#admitSessions}; a node without one sends
 * its sessions' packets as their windows allow, exactly as before.
 *
 * <p>The session asks before the first transmission of each packet; resends are never asked about
 * (they recover a loss the packet already paid for). A refused session sends nothing new until the
 * instant the meter named or until the meter's {@code wake} runs, whichever comes first; what the
 * application hands it meanwhile waits in the session's send buffer, and once that is full the
 * session's send is back-pressured (its writability), so no thread ever waits on a meter. Every call
 * is on the node's thread.
 */
public interface SessionAdmission {
    /** What {@link Meter#admit} returns for a packet that may go now. */
    long ADMITTED = Long.MIN_VALUE;

    /**
     * A session end opened on this node (by the application, or accepted from another node).
     *
     * @param remote the node at the other end (this node itself for a local session)
     * @param metric the metric its packets are routed by
     * @param wake run it (on the node's thread) when a refused session should ask again before the
     *     instant its meter named, such as when prices fell; the session then asks at its next timer
     * @return the session's meter, or null to leave this session unmetered
     */
    Meter open(NodeId remote, RoutingMetric metric, Runnable wake);

    /** One session's account with the admission. */
    interface Meter {
        /**
         * Decides on the next new packet of the session.
         *
         * @return {@link #ADMITTED} when it may go now (and it was paid for), otherwise the instant (on
         *     the node's clock) at which to ask again; {@code Long.MAX_VALUE} to wait for the wake
         */
        long admit(long nowNanos);

        /** The session closed: the meter is not used again. */
        void close();
    }
}
