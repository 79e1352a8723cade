/**
 * {@code overlay trace}: like traceroute, but over the overlay's own routes under any metric. A module
 * built on the node SPI alone ({@link net.hopwise.overlay.spi}), and the worked example of
 * docs/extending.md.
 *
 * <p>Install {@link net.hopwise.overlay.trace.TraceModule} on every node (relays append their records
 * and answer), then ask a node's {@link net.hopwise.overlay.trace.TraceService} (fetched with
 * {@code OverlayNode.module(TraceService.class)}) for the path to another node: the
 * {@link net.hopwise.overlay.trace.TraceResult} lists each {@link net.hopwise.overlay.trace.TraceHop}
 * with the cost of the link into it as routing uses it, that link's round trip as the previous hop
 * measures it, and the round trip of a probe from the source to it. Probes and answers are packet
 * types of the module's own ({@code TracePacket}, types 64 and 65); {@code TraceStage} is the module's
 * stage, after every core stage, taking only those types. The admin service exposes it as {@code GET
 * /api/trace/{node}} and its dashboard in the routes panel, the daemon as {@code --trace}.
 */
package net.hopwise.overlay.trace;
