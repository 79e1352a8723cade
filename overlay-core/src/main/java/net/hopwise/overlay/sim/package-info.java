/**
 * The deterministic network simulator: the production protocol machines on virtual time.
 *
 * <p>Because every protocol in Hopwise is sans-IO, a {@link net.hopwise.overlay.sim.SimNetwork} runs
 * the very {@link net.hopwise.overlay.node.NodeStack} a live node runs, for many nodes at once, on
 * the clock of a discrete-event {@link net.hopwise.overlay.sim.Simulator}. Engines transmit into
 * {@link net.hopwise.overlay.sim.SimLink}s, which model what the papers' ns-2 links modelled: a queue
 * (DropTail, RED or deficit-round-robin fair queuing), serialisation at a bandwidth, loss on the wire
 * (Bernoulli or Gilbert-Elliott, drawn by the impairment package's seeded model) and propagation
 * delay; links and nodes fail, recover and change at scheduled instants. End-to-end baselines that
 * are not part of the overlay (the TCP variants of {@link net.hopwise.overlay.sim.tcp}) send
 * {@link net.hopwise.overlay.sim.Packet}s that route themselves over the same links.
 *
 * <p>Determinism is a contract, checked by tests: actions at the same instant run in the order they
 * were scheduled, every random stream is split from the one seed in declaration order, engines see
 * only virtual time, and the {@link net.hopwise.overlay.sim.Trace} hashes every packet and timer
 * event, so two runs agree bit for bit or their digests differ. Runs of thousands of simulated
 * seconds keep bounded memory: statistics are streamed into fixed-size accumulators
 * ({@link net.hopwise.overlay.sim.DelayStatistics}), never stored per sample.
 */
package net.hopwise.overlay.sim;
