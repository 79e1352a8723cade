/**
 * The overlay as the service sees it. {@link net.hopwise.admin.overlay.LocalNodes} holds the nodes
 * this process runs: the service's own node and, in the demo, its siblings.
 * {@link net.hopwise.admin.overlay.OverlayView} takes one snapshot of the own node's link-state
 * database and routes per request on the node's event loop ({@code OverlayNode.inspect}) and builds
 * immutable views from it: links with a local end are measured in full, links between remote nodes
 * carry what their ends flood (latency and loss per direction).
 *
 * <p>Two threads of the service's own do periodic work: {@link net.hopwise.admin.overlay.LinkHistory}
 * samples links into bounded time series (throughput needs two readings of the byte counters), and
 * {@link net.hopwise.admin.overlay.OverlayEvents} turns node events into the event log and stream,
 * since node listeners run on event loops and must never block.
 */
package net.hopwise.admin.overlay;
