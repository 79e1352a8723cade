/**
 * Fairness of an overlay reliable link towards kernel TCP: a runnable benchmark, never a
 * test, since it needs root. {@link net.hopwise.examples.fairness.FairnessBenchmark} builds a small
 * network of Linux network namespaces joined by veth pairs, makes one link a bottleneck with a
 * token-bucket filter ({@code tc tbf}; there is no netem on the machines it was written for), and
 * runs the two ends of both flows as separate JVMs inside the namespaces, so that the overlay's UDP
 * and the kernel's TCP meet in the same kernel queue as they would on a real router. The
 * orchestrator drives the peers over their standard input and output, one line per command, and
 * takes every rate from the receivers' own counts and the queue's counters on one clock; the pure
 * pieces (Jain's index, rate series, tbf sizing) are plain classes with unit tests.
 */
package net.hopwise.examples.fairness;
