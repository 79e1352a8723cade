/**
 * Foundation benchmarks: runnable scenarios that measure a node against the baseline that matters,
 * side by side in one process run, and write the table to {@code docs/benchmarks.md}.
 *
 * <p>{@link net.hopwise.examples.bench.FoundationBenchmark} runs three scenarios on loopback UDP:
 * <ul>
 *   <li>round trip (one message outstanding) over one and three overlay hops against direct UDP
 *       between two Netty channels with the same thread structure as the nodes;</li>
 *   <li>best-effort throughput over one overlay link against a raw UDP blast between two
 *       {@code java.nio} datagram channels, with the same payload, socket buffers and duration;</li>
 *   <li>steady-state heap of one idle node and of a converged 50-node overlay in one JVM.</li>
 * </ul>
 *
 * <p>Benchmarks are never timed tests: the smoke tests beside them only run each scenario for a
 * moment and check that the table is well formed, so the code stays alive between runs.
 */
package net.hopwise.examples.bench;
