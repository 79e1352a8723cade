/**
 * The node as a sans-IO machine: {@link net.hopwise.overlay.node.NodeEngine} joins the link monitors,
 * the router, forwarding, reassembly and local ports behind three inputs (a datagram arrived, time
 * passed, the application called) and one output interface.
 *
 * <p>The Netty adapter in the parent package and the simulator drive the same engine; everything the
 * engine counts is a plain field read by the meters in {@link net.hopwise.overlay.node.NodeMeters}.
 */
package net.hopwise.overlay.node;
