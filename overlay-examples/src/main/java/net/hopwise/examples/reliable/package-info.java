/**
 * Benchmark scenarios of reliable links and sessions: runnable main classes, never timed
 * tests. Each builds a small overlay on loopback UDP, drives it, prints a table and, with
 * {@code --docs <file>}, writes its section of {@code docs/benchmarks.md} with the command, date and
 * machine beside the baseline measured in the same run.
 */
package net.hopwise.examples.reliable;
