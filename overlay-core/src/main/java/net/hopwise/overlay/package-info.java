/**
 * The embedding API of a Hopwise overlay node.
 *
 * <p>Build a {@link net.hopwise.overlay.NodeConfig}, start an {@link net.hopwise.overlay.OverlayNode},
 * open an {@link net.hopwise.overlay.OverlayPort} with a handler, and send to (node name, port). A send
 * returns a {@link net.hopwise.overlay.SendResult}; exceptions are only for misuse. Nodes are named,
 * not addressed: a {@link net.hopwise.overlay.NodeId} is derived from the name, so a node keeps its
 * identity across address changes and IPv4 or IPv6.
 *
 * <p>A running node is one UDP socket on Netty whose channel pipeline holds the node's stages as
 * named handlers ({@code StageHandler}, {@code DatagramStageHandler}; see {@link
 * net.hopwise.overlay.OverlayNode#pipelineNames()}), next to the socket a user's own handlers ({@link
 * net.hopwise.overlay.OverlayNode#addChannelHandler}) and the impairment handler of {@link
 * net.hopwise.overlay.impair}. Capabilities beyond the core come as modules installed on the
 * configuration ({@link net.hopwise.overlay.spi}), their APIs fetched with {@link
 * net.hopwise.overlay.OverlayNode#module(Class)}.
 */
package net.hopwise.overlay;
