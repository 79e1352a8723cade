/**
 * Real-time links and flows for interactive audio and video (Danilov, chapter 6).
 *
 * <p>Each overlay link carries a real-time channel with its own sequence numbers. The receiving end
 * forwards or delivers every packet the moment it arrives, even out of order, and on the first packet
 * that reveals a gap sends one negative acknowledgement listing the missing numbers; a gap is never
 * asked for twice and there are no timeouts, so the channel never blocks. The sending end keeps a
 * history of what it sent bounded by the codec deadline and a capacity, resends a packet only while
 * it is still in that history (that is what "only if it can still arrive in time" means), and caps
 * retransmissions with a token bucket fed by data packets. Duplicates (a late original plus its
 * retransmission) are passed on once. Each link thus repairs its own losses; intermediate nodes keep
 * no per-flow state. With independent loss p on both directions of a link the residual loss is about
 * {@code 2p^2 - 3p^3}. A resent copy is flagged in its wire header, and the node that forwards it
 * turns the flag into a mark every later hop keeps, so the destination knows which packets a link
 * recovered without any node keeping state for the flow.
 *
 * <p>At the destination a {@link net.hopwise.overlay.realtime.RealTimeFlowMonitor} per flow measures
 * what the application feels: one-way delay, loss from end-to-end sequence gaps, packets later than
 * a deadline, packets a link recovered, and RFC 3550 jitter. Every class here is sans-IO: time is
 * passed in, output goes to what the caller hands over.
 */
package net.hopwise.overlay.realtime;
