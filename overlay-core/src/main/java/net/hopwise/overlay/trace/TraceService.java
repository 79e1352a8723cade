package net.hopwise.overlay.trace;

import java.util.concurrent.CompletableFuture;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Traces the overlay route from this node to another under a metric: each hop with the cost routing
 * gives its link and the round trips measured by the trace's own probes. Fetched with {@code
 * OverlayNode.module(TraceService.class)} from a node that has a {@link TraceModule} installed.
 */
public interface TraceService {
    /**
     * Starts a trace; callable from any thread. The future completes on the node's thread once every
     * probe was answered or timed out. An unknown destination or one without a route completes it
     * with an error result, never exceptionally.
     *
     * <p>The future completes on the node's thread: hand slow work in its callbacks to another
     * executor (the {@code *Async} methods).
     *
     * @param destination the destination node's name
     * @param metric whose routes to trace; null for the node's default metric
     */
    CompletableFuture<TraceResult> trace(String destination, RoutingMetric metric);
}
