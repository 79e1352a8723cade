/**
 * The hostile-neighbour fuzzer on real sockets: runnable main classes, never timed tests. The fuzzer
 * itself is the one overlay-core's test suite runs on virtual time; here it drives a plain UDP socket
 * that completed a real hello exchange with a node, and the run asserts the same invariants on the
 * live nodes, prints a table and, with {@code --docs <file>}, writes its section of
 * {@code docs/benchmarks.md}.
 */
package net.hopwise.examples.fuzz;
