/**
 * Network impairment for links between nodes: loss (Bernoulli or bursty Gilbert-Elliott), delay,
 * jitter, a rate limit with a DropTail queue, reordering and duplication, per remote address and
 * direction.
 *
 * <p>The machines Hopwise is tested on have no netem, and the simulator needs the same behaviour on a
 * virtual clock, so impairment is ours and split in two. {@link net.hopwise.overlay.impair.ImpairmentModel}
 * is sans-IO: given a packet's size and the current time it decides whether the packet is dropped,
 * when it leaves and whether it is duplicated, from seeded random streams, so runs repeat exactly.
 * {@link net.hopwise.overlay.impair.ImpairmentHandler} is the thin Netty adapter that applies those
 * decisions to a datagram channel: it asks the model, releases what is dropped, and holds delayed
 * datagrams until the executor's clock reaches their departure, so under an {@code EmbeddedChannel}
 * the whole path runs on virtual time. Configurations are immutable values
 * ({@link net.hopwise.overlay.impair.ImpairmentConfig}) that any thread may swap in; models and held
 * datagrams belong to the channel's event loop alone.
 */
package net.hopwise.overlay.impair;
