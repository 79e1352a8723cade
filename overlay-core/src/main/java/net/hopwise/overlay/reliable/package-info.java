/**
 * The reliable channel of an overlay link (hop-by-hop reliability, after Amir and Danilov, DSN 2003).
 *
 * <p>Each link direction has a {@link net.hopwise.overlay.reliable.ReliableLinkSender} and, at the
 * neighbour, a {@link net.hopwise.overlay.reliable.ReliableLinkReceiver}. They number reliable
 * packets with their own per-link sequence numbers (the wire header's link sequence still counts
 * every packet, for loss estimation) under a sender epoch that changes whenever the channel starts
 * afresh (link down, restart), so a stale packet can never be mistaken for a new one. The receiver
 * acknowledges every packet, cumulatively plus selective blocks, piggybacked on reliable data going
 * back or in a LINK_ACK sent after the current batch of reads; it keeps one bit per sequence number
 * and no packets, because a new packet is forwarded or delivered the moment it arrives, out of order:
 * intermediate nodes keep no per-flow state and order is restored only at the edges. The sender
 * resends what acknowledgements show missing (RACK-style: a packet is lost once a packet sent three
 * transmissions later has arrived), a packet near the end of the flight once it has waited one
 * timeout from its own transmission (a tail-loss timer), and, when nothing new has been acknowledged
 * for a whole RFC 6298 timeout, everything outstanding, with exponential backoff (only an RTT sample
 * ends a backoff: Karn's rule). A lone last packet still unacknowledged a quarter of a round trip
 * after it left is sent once more (a tail probe), so that its loss costs a fraction of a round trip.
 * Its window is a pluggable {@link net.hopwise.overlay.reliable.CongestionController} counted in
 * bytes on the wire; the default {@link net.hopwise.overlay.reliable.RenoCongestionController}
 * follows RFC 5681 in full-size TCP segments of 1500 bytes, so that a link takes one fair share
 * beside TCP although its own packets are smaller.
 *
 * <p>Memory is bounded by the window and by a FIFO queue in front of it. When the queue of the link
 * a forwarded packet must leave by is full, the node refuses the packet: it does not acknowledge it,
 * so the previous hop keeps it and sends it again (Spines-style back-pressure that loses nothing and
 * slows the upstream link's congestion control). The queue's length also sets the congestion mark
 * (levels 1-3) stamped on passing packets for the end-to-end sessions. Everything here is sans-IO:
 * inputs are acknowledgements, packets and the time, outputs go to an interface the engine provides.
 */
package net.hopwise.overlay.reliable;
