/**
 * Benchmark scenarios for real-time links: a voice-like flow across a lossy loopback chain, with
 * and without per-link recovery, compared with Danilov's residual-loss analysis.
 */
package net.hopwise.examples.realtime;
