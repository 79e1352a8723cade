/**
 * Layered (multi-rate) multicast congestion control: ERA, Explicit Rate Adjustment (Puangpronpitag
 * 2003), as sans-IO machines.
 *
 * <p>A source publishes one stream as cumulative layers of constant rate ({@link
 * net.hopwise.multicast.layered.LayerRates}), every packet in bunches sent back to back ({@link
 * net.hopwise.multicast.layered.EraSender}), and announces the session ({@link
 * net.hopwise.multicast.layered.SessionAnnouncement}). It keeps no state per receiver and hears
 * nothing from them. Each receiver ({@link net.hopwise.multicast.layered.EraReceiver}) measures its
 * bottleneck from the bunches' dispersion, its loss from sequence gaps and, with a round trip from a
 * pluggable {@link net.hopwise.multicast.layered.RttEstimator}, the rate TCP would get; once per
 * adaptation interval, at instants every receiver shares through the announcement's epoch, it joins
 * or leaves as many layers as its target allows. Relays keep per-layer graft and prune state for
 * their children ({@link net.hopwise.multicast.layered.LayerForwarding}). Every class takes time as
 * {@code nowNanos} and reads no clock, so the same code runs in a node, in the simulator and in
 * virtual-time tests.
 *
 * <p>On a node, {@link net.hopwise.multicast.layered.LayeredMulticast} (installed with the multicast
 * module, reached through {@code Multicast.openLayeredSender} and {@code joinLayered}) runs these
 * machines: announcements down the source's tree, per-layer subscriptions to each node's tree parent
 * (a change sent three times 25 ms apart, as they are plain datagrams), relays forwarding every packet
 * on receipt, and for operators each receiver's levels over time and each relay's layers and traffic
 * per child ({@link net.hopwise.multicast.layered.LayeredRelayView}).
 */
package net.hopwise.multicast.layered;
