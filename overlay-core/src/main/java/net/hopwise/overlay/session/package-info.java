/**
 * End-to-end reliable sessions, kept only at the two edge nodes: message streams between (node,
 * port) pairs delivered exactly once and in order.
 *
 * <p>A {@link net.hopwise.overlay.session.ReliableSessionSender} numbers packets end to end (a long
 * message takes several), keeps them until the receiving edge acknowledges them, and resends
 * end to end only when its timer expires, which with reliable links means a relay failed or the
 * route changed under the packets. A {@link net.hopwise.overlay.session.ReliableSessionReceiver}
 * reorders within a bounded window, drops duplicates, reassembles messages and hands them to the
 * application; it acknowledges sparsely (every quarter window, at once on congestion marks 2-3 or a
 * duplicate, otherwise within 10 ms), and acknowledgements ride on data going the other way when
 * there is any. The receiver advertises what is left of its window, so an application that stops
 * taking messages stops the sender (flow control), and echoes the congestion marks busy nodes put
 * on packets; the sender then slows down without resending (Spines' three levels). Sessions are
 * incarnation-numbered: reopening a session starts a fresh stream the far end recognises without a
 * handshake. The wire form is {@link net.hopwise.overlay.session.SessionHeader}, after the routing
 * header of a packet carried on the links' reliable channel.
 *
 * <p>{@link net.hopwise.overlay.session.SessionEndpoint} joins both edges of one session end for the
 * node engine; the application API is {@link net.hopwise.overlay.ReliableSession}. Sans-IO
 * throughout. A receiving node that restarts mid-stream loses the session (the application state
 * is gone with it); its sender keeps resending until closed.
 */
package net.hopwise.overlay.session;
