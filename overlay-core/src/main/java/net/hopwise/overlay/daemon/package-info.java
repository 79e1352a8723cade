/**
 * A node run as its own process: {@link net.hopwise.overlay.NodeDaemon} parses its command line here
 * ({@link net.hopwise.overlay.daemon.DaemonArguments}) and starts a
 * {@link net.hopwise.overlay.daemon.Daemon}, which logs what an operator needs to see (links up and
 * down, reroutes, neighbours moving, periodic link and drop statistics) and can serve the node's
 * meters to Prometheus without Spring. Every daemon installs the trace module, and {@code --trace}
 * runs one as a one-shot command instead ({@link net.hopwise.overlay.daemon.TraceCommand}).
 *
 * <p>Everything here uses the node's public API only: listeners for events, {@code neighbours()} and
 * the meter registry for measurements, queries for routes. The Prometheus registry is an optional
 * dependency of overlay-core, bundled in the daemon jar; code that embeds a node never loads it.
 */
package net.hopwise.overlay.daemon;
