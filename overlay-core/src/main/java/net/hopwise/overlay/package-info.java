/**
 * The embedding API of a Hopwise overlay node.
 *
 * <p>Build a {@link net.hopwise.overlay.NodeConfig}, start an {@link net.hopwise.overlay.OverlayNode},
 * open an {@link net.hopwise.overlay.OverlayPort} with a handler, and send to (node name, port). A send
 * returns a {@link net.hopwise.overlay.SendResult}; exceptions are only for misuse. Nodes are named,
 * not addressed: a {@link net.hopwise.overlay.NodeId} is derived from the name, so a node keeps its
 * identity across address changes and IPv4 or IPv6.
 */
package net.hopwise.overlay;
