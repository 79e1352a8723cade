/**
 * Link-state routing, sans-IO: what a node advertises about its links, how advertisements reach
 * every node, and how routes are chosen from them.
 *
 * <p>Each node originates one {@link net.hopwise.overlay.routing.LinkStateAdvertisement} listing its
 * up links with their measured latency and loss. A {@link net.hopwise.overlay.routing.Router} floods
 * advertisements over its links reliably (per-neighbour retransmission until acked, newer sequence
 * wins, aggregated into datagram-sized updates by {@link net.hopwise.overlay.routing.LinkStateCodec}),
 * ages out those of departed nodes, and from its {@link net.hopwise.overlay.routing.LinkStateDatabase}
 * computes, for each {@link net.hopwise.overlay.routing.RoutingMetric}, a shortest-path tree over the
 * links both ends advertise. Costs are made exact integers and ties are broken by hop count and then
 * by node ids, so every node with the same database picks the same path for every pair and
 * hop-by-hop forwarding follows the path its source chose. Forwarding lookups are a primitive hash
 * probe and an array read. Nothing here reads a clock, sleeps, starts a thread or touches Netty
 * channels: the node engine passes time in, calls {@code onTimer} at {@code nextDeadlineNanos()},
 * and carries the updates and acks a router hands to its {@link net.hopwise.overlay.routing.RouterOutput}.
 *
 * <p>Beside link state, the same reliable flooding carries modules' link-state extension records
 * ({@link net.hopwise.overlay.routing.ExtensionRecord}: one opaque record per origin and kind, such as
 * multicast membership), in packet types of their own ({@link net.hopwise.overlay.routing.ExtensionCodec}),
 * ordered, aged and collected with their origin's advertisement, and never a cause of route
 * computation. From the snapshot its routes come from, a router also gives the shortest-path tree
 * from any source ({@link net.hopwise.overlay.routing.Router#tree}), tie-broken as every node's own
 * routes are, which is what source-rooted multicast forwards along. With a signer installed by a module,
 * advertisements and extension records carry their origin's signature and a newer version is installed
 * only once it verifies.
 */
package net.hopwise.overlay.routing;
