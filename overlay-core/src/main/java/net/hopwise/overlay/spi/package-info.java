/**
 * The node's service provider interface: how a module adds a capability to an overlay node without
 * touching its core. See {@code docs/extending.md} for a worked example (the trace module).
 *
 * <p>A node is a chain of {@link net.hopwise.overlay.spi.Stage stages}, each a sans-IO layer that takes
 * {@link net.hopwise.overlay.spi.Frame frames} and time. An {@link net.hopwise.overlay.spi.OverlayModule}
 * is installed on the node's configuration; when the node is built it gets a
 * {@link net.hopwise.overlay.spi.ModuleContext}, through which it registers packet types from the
 * module range, adds stages at named positions, reads routes and links through synchronous views
 * ({@link net.hopwise.overlay.spi.RouteView}, {@link net.hopwise.overlay.spi.LinkView}), sends to
 * neighbours (one packet, or one payload fanned out to several without copying it), keeps state per
 * link, subscribes to events, publishes link-state extension records, signs the node's link state
 * ({@link net.hopwise.overlay.spi.LinkStateSigner}, so that no node can forge another's), counts drops
 * and meters, and exposes an API object that applications fetch with {@code OverlayNode.module(Class)}.
 */
package net.hopwise.overlay.spi;
