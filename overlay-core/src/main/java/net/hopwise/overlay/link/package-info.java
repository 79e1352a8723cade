/**
 * Link monitoring: the hello protocol between neighbours, liveness, and measurement of RTT, jitter
 * and loss on each overlay link.
 *
 * <p>Everything here is sans-IO. A {@link net.hopwise.overlay.link.LinkMonitor} is a plain state
 * machine for one neighbour: the engine feeds it decoded hellos, the link sequence number of every
 * packet from that neighbour, and "time has passed" calls, each with the current time from its own
 * monotonic clock; the monitor answers through a {@link net.hopwise.overlay.link.LinkMonitorOutput}
 * (hellos to send, link up and down, quality changed) and says through {@code nextDeadlineNanos()}
 * when it next wants the time. It never reads a clock, sleeps, starts threads or touches a channel,
 * so tests and the simulator drive it on virtual time. Hellos echo the peer's latest hello with the
 * time it was held, which gives RTT without synchronised clocks, and the same four time stamps give
 * the peer's clock offset ({@link net.hopwise.overlay.link.ClockOffset}, NTP's estimate, exactly 0 between
 * nodes of one machine), by which real-time send times are read across machines; a link is up only on such an echo,
 * so both directions are proven before traffic is routed over it. Inbound loss uses the Spines
 * estimator over the last 50 loss events on per-link sequence numbers, made tolerant of reordering,
 * duplication and wrap; each side reports its inbound loss to the other in its hellos, which is how a
 * node learns the outbound loss it advertises to routing. {@link net.hopwise.overlay.link.HelloCodec}
 * is the wire form of the hello body, with a total decoder; buffer ownership stays with the caller.
 */
package net.hopwise.overlay.link;
